// Operator: the account a provider name means in createOffer's `gateway` for this tenant (one default per
// tenant and provider; the database's partial unique index holds it). Offers already made keep their account.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export interface SetDefaultGatewayAccountInput {
  tenantId: string;
  /** gwa_ id of an account of that tenant. */
  id: string;
}

export async function setDefaultGatewayAccount(prisma: PrismaClient, input: SetDefaultGatewayAccountInput) {
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  if (!isId("gatewayAccount", input.id)) throw notFound("gateway account");
  return prisma.$transaction(async (tx) => {
    const account = await tx.gatewayAccount.findFirst({ where: { id: input.id, tenantId: input.tenantId } });
    if (!account) throw notFound("gateway account");
    // The provider's accounts locked in id order: two concurrent calls take turns instead of colliding on the index.
    await tx.$queryRaw`SELECT id FROM gateway_accounts WHERE tenant_id = ${input.tenantId} AND provider = ${account.provider} ORDER BY id FOR UPDATE`;
    await tx.gatewayAccount.updateMany({
      where: { tenantId: input.tenantId, provider: account.provider, isDefault: true, id: { not: account.id } },
      data: { isDefault: false },
    });
    return tx.gatewayAccount.update({ where: { id: account.id }, data: { isDefault: true } });
  });
}
