// `gateway` of createOffer and createOneTimeOffer: which gateway account of the tenant charges the offer.
//   - a gwa_ id of the tenant;
//   - a provider name (sandbox, stripe, ...): that provider's default account (setDefaultGatewayAccount;
//     the first account of a provider is its default). Sandbox only: made on first use, as before;
//     a real provider needs an account with credentials first;
//   - the name of one of the tenant's accounts.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId, newId } from "../shared/ids.ts";
import { ADAPTER_DEFAULTS, GATEWAY_PROVIDERS } from "./capabilities.ts";
import { insertGatewayAccount } from "./insert-gateway-account.ts";

export async function resolveGatewayAccount(prisma: PrismaClient, tenantId: string, gateway: string) {
  if (isId("gatewayAccount", gateway)) {
    const account = await prisma.gatewayAccount.findFirst({ where: { id: gateway, tenantId } });
    if (!account) throw notFound("gateway account");
    return account;
  }
  const isProvider = (GATEWAY_PROVIDERS as readonly string[]).includes(gateway);
  if (isProvider) {
    const byDefault = await prisma.gatewayAccount.findFirst({ where: { tenantId, provider: gateway, isDefault: true } });
    if (byDefault) return byDefault;
  }
  const byName = await prisma.gatewayAccount.findUnique({ where: { tenantId_name: { tenantId, name: gateway } } });
  if (byName) return byName;
  if (gateway === "sandbox") {
    const tenant = await prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
    if (!tenant) throw notFound("tenant");
    try {
      return await insertGatewayAccount(prisma, { id: newId("gatewayAccount"), tenantId, provider: "sandbox", name: "sandbox", capabilities: { ...ADAPTER_DEFAULTS.sandbox } });
    } catch (err) {
      // Two offers made at once: the other request made it.
      const made = await prisma.gatewayAccount.findUnique({ where: { tenantId_name: { tenantId, name: "sandbox" } } });
      if (made) return made;
      throw err;
    }
  }
  if (isProvider) {
    throw new AppError("invalid_argument", {
      error: `the tenant has no default ${gateway} account: create one with createGatewayAccount (its credentials), or name a gwa_ id`,
    });
  }
  throw new AppError("invalid_argument", { error: `gateway must be a gwa_ id, a provider (${GATEWAY_PROVIDERS.join(", ")}) or an account name of the tenant` });
}
