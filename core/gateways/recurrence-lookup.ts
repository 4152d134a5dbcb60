// Where a charge stands in its subscription, for a gateway that messages recurring charges (Mercado Pago's
// subscription messaging: subscription id, place in the sequence, period, first payment of the sequence).
// Only an invoice (inv_) of a subscription has one; the checkout's first charge comes before its invoice
// is written, so it has none. Every read is scoped by tenant and by the charging account.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { GatewayAccountRef } from "./adapter.ts";

export interface Recurrence {
  subscriptionId: string;
  /** This charge's cycle of the subscription (1 = the first paid one). */
  sequence: number;
  interval: "MONTH" | "YEAR";
  /** The gateway's id of the first charge of the subscription approved on this card at this account; null: none yet. */
  firstChargeId: string | null;
}

/** `token`: the saved card being charged (a new card paying on /pay is not the subscription's card yet). */
export type RecurrenceLookup = (account: GatewayAccountRef, reference: string, token: string) => Promise<Recurrence | null>;

export function recurrenceLookup(prisma: PrismaClient): RecurrenceLookup {
  return async (account, reference, token) => {
    if (!reference.startsWith("inv_")) return null;
    const tenantId = account.tenantId;
    const invoice = await prisma.invoice.findFirst({
      where: { id: reference, tenantId },
      select: { subscription: { select: { id: true, customerId: true, paidCycles: true, offer: { select: { interval: true } } } } },
    });
    const sub = invoice?.subscription;
    if (!sub) return null;
    const cards = await prisma.paymentMethod.findMany({ where: { tenantId, customerId: sub.customerId, gatewayAccountId: account.id, token }, select: { id: true } });
    const first = cards.length
      ? await prisma.payment.findFirst({
          where: {
            tenantId,
            subscriptionId: sub.id,
            gatewayAccountId: account.id,
            paymentMethodId: { in: cards.map((c) => c.id) },
            method: "CARD",
            status: { in: ["PAID", "REFUNDED", "CHARGEDBACK"] },
            gatewayChargeId: { not: "" },
          },
          orderBy: { id: "asc" },
          select: { gatewayChargeId: true },
        })
      : null;
    return { subscriptionId: sub.id, sequence: sub.paidCycles + 1, interval: sub.offer.interval === "YEAR" ? "YEAR" : "MONTH", firstChargeId: first?.gatewayChargeId ?? null };
  };
}
