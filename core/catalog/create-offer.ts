// Operator: a recurring offer (price per cycle) of a plan on one gateway account.
import type { BillingInterval, CollectionMethod, PrismaClient } from "../../generated/prisma/client.ts";
import { resolveGatewayAccount } from "../gateways/create-gateway-account.ts";
import type { Capabilities } from "../gateways/capabilities.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { normalizeCurrency } from "../shared/money.ts";
import { findOwnedPlan } from "./find-owned.ts";

export interface CreateOfferInput {
  tenantId: string;
  planId: string;
  name: string;
  interval: BillingInterval;
  priceCents: number;
  currency: string;
  gateway: string;
  collectionMethods: CollectionMethod[];
  trialDays: number;
}

export async function createOffer(prisma: PrismaClient, input: CreateOfferInput) {
  if (!Number.isSafeInteger(input.priceCents) || input.priceCents < 1) throw new AppError("invalid_argument", { error: "priceCents must be a positive integer" });
  if (!Number.isInteger(input.trialDays) || input.trialDays < 0 || input.trialDays > 730) {
    throw new AppError("invalid_argument", { error: "trialDays must be an integer from 0 to 730" });
  }
  const methods = [...new Set(input.collectionMethods)];
  if (!methods.length) throw new AppError("invalid_argument", { error: "collectionMethods needs at least one method" });
  const currency = toCurrency(input.currency);
  await findOwnedPlan(prisma, input.tenantId, input.planId);
  const account = await resolveGatewayAccount(prisma, input.tenantId, input.gateway);
  const caps = account.capabilities as unknown as Capabilities;
  if (methods.includes("CARD_AUTO") && !caps.supportsCard) throw new AppError("invalid_argument", { error: "this gateway does not support cards" });
  if (methods.includes("PIX_MANUAL") && !caps.supportsPix) throw new AppError("invalid_argument", { error: "this gateway does not support Pix" });
  return prisma.offer.create({
    data: {
      id: newId("offer"),
      tenantId: input.tenantId,
      planId: input.planId,
      gatewayAccountId: account.id,
      name: input.name,
      kind: "RECURRING",
      interval: input.interval,
      priceCents: input.priceCents,
      currency,
      collectionMethods: methods,
      trialDays: input.trialDays,
    },
  });
}

export function toCurrency(value: string): string {
  try {
    return normalizeCurrency(value);
  } catch {
    throw new AppError("invalid_argument", { error: "currency must be a three-letter code" });
  }
}
