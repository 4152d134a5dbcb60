// GET /v1/subscriptions/{id}: one subscription of the tenant. Foreign, unknown and malformed ids are one 404.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export async function getSubscription<Q extends { include?: Prisma.SubscriptionInclude; select?: Prisma.SubscriptionSelect }>(
  prisma: PrismaClient,
  input: { tenantId: string; subscriptionId: string },
  query: Q = {} as Q,
) {
  if (!isId("subscription", input.subscriptionId)) throw notFound("subscription");
  const sub = await prisma.subscription.findFirst({ ...query, where: { id: input.subscriptionId, tenantId: input.tenantId } });
  if (!sub) throw notFound("subscription");
  return sub;
}
