// Turning two-factor off takes a current code (or a recovery code), so a stolen session alone cannot
// weaken the account; refused while the owner requires it of the team.
import type { Runtime } from "../runtime.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { openTotp, recoveryCodeHash, totpStep } from "./team-secrets.ts";

export async function disableTwoFactor(runtime: Runtime, clock: Clock, input: { tenantId: string; userId: string; code: string }): Promise<boolean> {
  const prisma = runtime.db.prisma;
  const user = await prisma.tenantUser.findFirst({ where: { id: input.userId, tenantId: input.tenantId }, include: { tenant: { select: { twoFactorRequired: true } } } });
  if (!user) throw notFound("user");
  if (!user.totpEnabledAt || !user.totpSecret) throw new AppError("conflict", { error: "a verificação em duas etapas já está desativada" });
  if (user.tenant.twoFactorRequired) throw new AppError("conflict", { error: "a sua equipe exige a verificação em duas etapas" });
  const step = totpStep(openTotp(runtime, user.id, user.totpSecret), input.code, clock.now(), user.totpLastStep);
  const recovery = user.recoveryCodes.includes(recoveryCodeHash(input.code));
  if (step === null && !recovery) throw new AppError("invalid_code");
  const done = await prisma.tenantUser.updateMany({
    where: { id: user.id, tenantId: input.tenantId, totpEnabledAt: { not: null } },
    data: { totpEnabledAt: null, totpSecret: null, totpLastStep: null, recoveryCodes: [] },
  });
  return done.count === 1;
}
