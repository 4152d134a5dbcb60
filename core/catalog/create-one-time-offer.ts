// Operator: a one-time offer (unit price, bought with a quantity) granting days of access, or
// extending the buyer's subscription when renewsSubscription is set.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { resolveGatewayAccount } from "../gateways/create-gateway-account.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { toCurrency } from "./create-offer.ts";
import { findOwnedPlan } from "./find-owned.ts";

/** One hundred years of access per purchase. */
export const MAX_GRANT_DAYS = 36_500;

export interface CreateOneTimeOfferInput {
  tenantId: string;
  planId: string;
  name: string;
  unitPriceCents: number;
  currency: string;
  gateway: string;
  grantDays: number;
  renewsSubscription: boolean;
}

export async function createOneTimeOffer(prisma: PrismaClient, input: CreateOneTimeOfferInput) {
  if (!Number.isSafeInteger(input.unitPriceCents) || input.unitPriceCents < 1) {
    throw new AppError("invalid_argument", { error: "unitPriceCents must be a positive integer" });
  }
  // A grant ends grantDays after payment: a date past year 9999 cannot be stored (it was a 500 at checkout).
  if (!Number.isInteger(input.grantDays) || input.grantDays < 0 || input.grantDays > MAX_GRANT_DAYS) {
    throw new AppError("invalid_argument", { error: `grantDays must be an integer from 0 to ${MAX_GRANT_DAYS}` });
  }
  const currency = toCurrency(input.currency);
  await findOwnedPlan(prisma, input.tenantId, input.planId);
  const account = await resolveGatewayAccount(prisma, input.tenantId, input.gateway);
  return prisma.offer.create({
    data: {
      id: newId("offer"),
      tenantId: input.tenantId,
      planId: input.planId,
      gatewayAccountId: account.id,
      name: input.name,
      kind: "ONE_TIME",
      priceCents: input.unitPriceCents,
      currency,
      collectionMethods: ["CARD_AUTO", "PIX_MANUAL"],
      grantDays: input.grantDays,
      renewsSubscription: input.renewsSubscription,
    },
  });
}
