// GET /v1/customers/{external_id}/subscriptions: every subscription of the customer, canceled included.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { subscriptionPayloadInclude } from "../payloads/subscription-payload.ts";
import { findCustomer } from "./find-customer.ts";

export async function listCustomerSubscriptions(prisma: PrismaClient, input: { tenantId: string; externalId: string }) {
  const customer = await findCustomer(prisma, input);
  const subscriptions = await prisma.subscription.findMany({
    where: { tenantId: input.tenantId, customerId: customer.id },
    include: subscriptionPayloadInclude,
    orderBy: { id: "asc" },
  });
  return { customer, subscriptions };
}
