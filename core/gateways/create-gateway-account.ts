// Operator: a tenant's gateway account: an adapter plus, for sandbox, its capability values.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId, newId } from "../shared/ids.ts";
import { ADAPTER_DEFAULTS, capabilitiesSchema, KNOWN_PROVIDERS } from "./capabilities.ts";

export interface CreateGatewayAccountInput {
  tenantId: string;
  provider: string;
  name: string;
  capabilities?: unknown;
}

export async function createGatewayAccount(prisma: PrismaClient, input: CreateGatewayAccountInput) {
  const defaults = ADAPTER_DEFAULTS[input.provider];
  if (!defaults) throw new AppError("invalid_argument", { error: `unknown gateway provider; known: ${KNOWN_PROVIDERS.join(", ")}` });
  const parsed = capabilitiesSchema.partial().safeParse(input.capabilities ?? {});
  if (!parsed.success) throw new AppError("invalid_argument", { error: "capabilities do not match the capability record" });
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  return prisma.gatewayAccount.create({
    data: {
      id: newId("gatewayAccount"),
      tenantId: input.tenantId,
      provider: input.provider,
      name: input.name,
      capabilities: { ...defaults, ...parsed.data } as Prisma.InputJsonValue,
    },
  });
}

/** `gateway` of createOffer: a gwa_ id of the tenant, or a provider name (its default account, made on first use). */
export async function resolveGatewayAccount(prisma: PrismaClient, tenantId: string, gateway: string) {
  if (isId("gatewayAccount", gateway)) {
    const account = await prisma.gatewayAccount.findFirst({ where: { id: gateway, tenantId } });
    if (!account) throw notFound("gateway account");
    return account;
  }
  const existing = await prisma.gatewayAccount.findUnique({ where: { tenantId_name: { tenantId, name: gateway } } });
  if (existing) return existing;
  return createGatewayAccount(prisma, { tenantId, provider: gateway, name: gateway });
}
