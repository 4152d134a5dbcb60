// The owner's switch: two-factor sign-in required of the whole team. The owner turns it on for
// themself first, so the switch cannot shut its own author out.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";

export async function setTwoFactorRequired(prisma: PrismaClient, input: { tenantId: string; userId: string; required: boolean }): Promise<{ required: boolean }> {
  if (input.required) {
    const owner = await prisma.tenantUser.findFirst({ where: { id: input.userId, tenantId: input.tenantId }, select: { totpEnabledAt: true } });
    if (!owner?.totpEnabledAt) throw new AppError("conflict", { error: "ative a verificação em duas etapas na sua conta antes de exigi-la da equipe" });
  }
  const tenant = await prisma.tenant.update({ where: { id: input.tenantId }, data: { twoFactorRequired: input.required }, select: { twoFactorRequired: true } });
  return { required: tenant.twoFactorRequired };
}
