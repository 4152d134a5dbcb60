// Subscriptions read as `subscriptionDetailInclude` reads them (the data of every subscription.* and
// invoice.* event), in one statement without Prisma's compiler (prisma/direct-sql.ts): each checkout,
// renewal batch and dunning step writes events with this data inside its transaction. The shape is
// Prisma's, field for field; test/core/shared/row-columns.test.ts compares the two reads.
import type { Customer, Payment, Subscription } from "../../generated/prisma/client.ts";
import { sqlQuery, type SqlClient } from "../../prisma/direct-sql.ts";
import { customerColumns, paymentColumns, pickRow, subscriptionColumns } from "../shared/row-columns.ts";
import type { SubscriptionForDetail } from "./subscription-payload.ts";

const READ_DETAILS = `
  SELECT ${subscriptionColumns("s")}, ${customerColumns("c", "c_")}, ${paymentColumns("lp", "lp_")},
         pl.id AS "pl_id", pl.name AS "pl_name", pl.entitlements AS "pl_entitlements",
         o.id AS "o_id", o.interval::text AS "o_interval", o.price_cents AS "o_priceCents",
         po.id AS "po_id", po.plan_id AS "po_planId", po.interval::text AS "po_interval", po.price_cents AS "po_priceCents", ppl.name AS "po_planName",
         pm.id AS "pm_id", pm.brand AS "pm_brand", pm.last4 AS "pm_last4",
         r.id AS "r_id", r.cycles_remaining AS "r_cyclesRemaining", cp.percent_off AS "r_percentOff", cp.amount_off_cents AS "r_amountOffCents"
    FROM subscriptions s
    JOIN customers c ON c.id = s.customer_id
    JOIN plans pl ON pl.id = s.plan_id
    JOIN offers o ON o.id = s.offer_id
    LEFT JOIN offers po ON po.id = s.pending_offer_id
    LEFT JOIN plans ppl ON ppl.id = po.plan_id
    LEFT JOIN payment_methods pm ON pm.id = s.payment_method_id
    LEFT JOIN LATERAL (SELECT cr.id, cr.coupon_id, cr.cycles_remaining FROM coupon_redemptions cr
                        WHERE cr.subscription_id = s.id AND cr.active ORDER BY cr.id LIMIT 1) r ON true
    LEFT JOIN coupons cp ON cp.id = r.coupon_id
    LEFT JOIN payments lp ON lp.id = s.last_payment_id
   WHERE s.id = ANY($1::text[])`;

type Row = Subscription & Record<string, unknown>;

/** The subscriptions with these ids (any order; unknown ids are left out). */
export async function readSubscriptionDetails(client: SqlClient, ids: string[]): Promise<SubscriptionForDetail[]> {
  if (ids.length === 0) return [];
  const rows = await sqlQuery<Row>(client, READ_DETAILS, [ids]);
  return rows.map((row) => {
    const sub: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) if (!/^(c|lp|pl|o|po|pm|r)_/.test(k)) sub[k] = v;
    const pendingOffer = pickRow<{ id: string; planId: string; interval: string | null; priceCents: number; planName: string }>(row, "po_");
    const paymentMethod = pickRow<{ id: string; brand: string; last4: string }>(row, "pm_");
    const redemption = pickRow<{ cyclesRemaining: number | null; percentOff: number | null; amountOffCents: number | null }>(row, "r_");
    return {
      ...(sub as Subscription),
      customer: pickRow<Customer>(row, "c_")!,
      plan: { id: row.pl_id as string, name: row.pl_name as string, entitlements: row.pl_entitlements as SubscriptionForDetail["plan"]["entitlements"] },
      offer: { id: row.o_id as string, interval: row.o_interval as SubscriptionForDetail["offer"]["interval"], priceCents: row.o_priceCents as number },
      pendingOffer: pendingOffer && {
        id: pendingOffer.id,
        planId: pendingOffer.planId,
        interval: pendingOffer.interval as SubscriptionForDetail["offer"]["interval"],
        priceCents: pendingOffer.priceCents,
        plan: { name: pendingOffer.planName },
      },
      paymentMethod: paymentMethod && { brand: paymentMethod.brand, last4: paymentMethod.last4 },
      redemptions: redemption ? [{ cyclesRemaining: redemption.cyclesRemaining, coupon: { percentOff: redemption.percentOff, amountOffCents: redemption.amountOffCents } }] : [],
      lastPayment: pickRow<Payment>(row, "lp_"),
    } as SubscriptionForDetail;
  });
}
