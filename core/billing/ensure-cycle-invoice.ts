// The invoice of the cycle starting at `periodStart`, created once: the unique (subscription, period,
// kind) constraint makes a second creation, by any instance, return the first. It is created under the
// subscription's lock (as a cancel takes it), and not at all once the subscription was canceled or its
// cancellation scheduled since the duty read it: such an invoice would be charged for a cycle nobody
// buys (and refunded), since the cancel voided the open invoices before this one existed.
import { Prisma, type Invoice } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { newId } from "../shared/ids.ts";
import { cents } from "../shared/money.ts";
import { pendingChangeDueAt } from "../subscriptions/apply-scheduled-plan-change.ts";
import { invoiceAmount } from "../shared/invoice-amount.ts";
import { type Interval } from "../shared/periods.ts";
import { cycleInvoiceRow } from "./build-renewal-rows.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";

export async function ensureCycleInvoice(
  runtime: Runtime,
  input: { tenantId: string; subscriptionId: string; periodStart: Date; anchorDay: number; now: Date },
): Promise<Invoice | null> {
  const prisma = runtime.db.prisma;
  const where = { subscriptionId_periodStart_kind: { subscriptionId: input.subscriptionId, periodStart: input.periodStart, kind: "CYCLE" as const } };
  const existing = await prisma.invoice.findUnique({ where });
  if (existing) return existing;
  const sub = await prisma.subscription.findFirstOrThrow({
    where: { id: input.subscriptionId, tenantId: input.tenantId },
    include: {
      offer: { select: { interval: true, priceCents: true } },
      pendingOffer: { select: { interval: true, priceCents: true } },
      redemptions: { where: { active: true }, orderBy: { id: "asc" }, take: 1, include: { coupon: true } },
    },
  });
  // A scheduled plan change due by this period prices it (and its coupon goes only with keep_coupon).
  const pending = sub.pendingOffer && pendingChangeDueAt(sub, input.periodStart);
  const offer = pending ? sub.pendingOffer! : sub.offer;
  const redemption = pending && !sub.pendingKeepCoupon ? undefined : sub.redemptions[0];
  const amount = invoiceAmount(
    cents(offer.priceCents),
    redemption ? { percentOff: redemption.coupon.percentOff, amountOffCents: redemption.coupon.amountOffCents, cyclesRemaining: redemption.cyclesRemaining } : null,
  );
  try {
    return await prisma.$transaction(async (tx) => {
      const [live] = await sqlQuery<{ ends: boolean }>(tx, Prisma.sql`
        SELECT status = 'CANCELED' OR cancel_at_period_end AS ends FROM subscriptions
         WHERE id = ${input.subscriptionId} AND tenant_id = ${input.tenantId} FOR UPDATE`);
      if (!live || live.ends) return null;
      return tx.invoice.create({
        data: cycleInvoiceRow({
          id: newId("invoice"),
          tenantId: input.tenantId,
          subscriptionId: input.subscriptionId,
          currency: sub.currency,
          periodStart: input.periodStart,
          interval: (offer.interval ?? "MONTH") as Interval,
          anchorDay: input.anchorDay,
          amount,
          now: input.now,
        }),
      });
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return prisma.invoice.findUniqueOrThrow({ where });
    throw err;
  }
}
