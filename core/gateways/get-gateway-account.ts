// One gateway account of a tenant by id. Another tenant's id answers exactly like an unknown one.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export async function getGatewayAccount(prisma: PrismaClient, input: { tenantId: string; id: string }) {
  if (!isId("gatewayAccount", input.id)) throw notFound("gateway account");
  const account = await prisma.gatewayAccount.findFirst({ where: { id: input.id, tenantId: input.tenantId } });
  if (!account) throw notFound("gateway account");
  return account;
}
