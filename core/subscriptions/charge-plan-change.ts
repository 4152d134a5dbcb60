// The charged half of an immediate plan change. Under the subscription lock a PRORATION invoice and
// its payment attempt are reserved (an open one refuses a second change: one charge at most); the card
// is charged outside any transaction with the key `<invoice id>:1`; a second locked transaction
// settles the verdict and applies the change only when approved and nothing moved meanwhile (else the
// money goes back at once, as a surplus payment).
import { Prisma, type GatewayAccount, type PaymentMethod, type Subscription } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "../shared/tx.ts";
import { askChargeOutcome } from "../gateways/ask-charge-outcome.ts";
import { chargeCard } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import type { Cents } from "../shared/money.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { settlePayment } from "../billing/settle-payment.ts";

export interface ProrationReservation {
  invoiceId: string;
  paymentId: string;
  idempotencyKey: string;
  amountCents: Cents;
  currency: string;
  token: string;
  account: GatewayAccount;
  /** What the subscription looked like when the change was decided; the change applies only if it still does. */
  offerId: string;
  status: Subscription["status"];
}


const inProgress = () => new AppError("conflict", { error: "another plan change of this subscription is in progress" });

/** While a proration is being charged no other plan change is decided (it would be overwritten or drop the one in flight). */
export async function assertNoProrationInFlight(tx: Tx, sub: { tenantId: string; id: string }): Promise<void> {
  const open = await tx.invoice.findFirst({ where: { tenantId: sub.tenantId, subscriptionId: sub.id, kind: "PRORATION", status: "OPEN" }, select: { id: true } });
  if (open) throw inProgress();
}

export async function reserveProration(
  tx: Tx,
  input: { subscription: Subscription; account: GatewayAccount; card: PaymentMethod; amountCents: Cents; periodEnd: Date; now: Date },
): Promise<ProrationReservation> {
  const { subscription: sub, account, card, amountCents, now } = input;
  await assertNoProrationInFlight(tx, sub);
  // (subscription, period start, kind) is unique: a retry at the same instant (a frozen sandbox clock)
  // after a declined or settled proration starts its invoice one millisecond later.
  const latest = await tx.invoice.findFirst({
    where: { tenantId: sub.tenantId, subscriptionId: sub.id, kind: "PRORATION", periodStart: { gte: now } },
    orderBy: { periodStart: "desc" },
    select: { periodStart: true },
  });
  const periodStart = latest ? new Date(latest.periodStart.getTime() + 1) : now;
  const invoiceId = newId("invoice");
  const paymentId = newId("payment");
  const idempotencyKey = `${invoiceId}:1`;
  try {
    await tx.invoice.create({
      data: {
        id: invoiceId,
        tenantId: sub.tenantId,
        subscriptionId: sub.id,
        kind: "PRORATION",
        periodStart,
        periodEnd: input.periodEnd,
        dueAt: now,
        amountCents,
        currency: sub.currency,
      },
    });
  } catch (err) {
    // The unique (subscription, period start, kind): a second proration at the same instant is the same change.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw inProgress();
    throw err;
  }
  await tx.payment.create({
    data: {
      id: paymentId,
      tenantId: sub.tenantId,
      customerId: sub.customerId,
      subscriptionId: sub.id,
      invoiceId,
      kind: "RECURRING",
      method: "CARD",
      methodKind: "credit_card",
      amountCents,
      currency: sub.currency,
      status: "PROCESSING",
      attemptNo: 1,
      idempotencyKey,
      gatewayAccountId: account.id,
      provider: account.provider,
      paymentMethodId: card.id,
      cardBrand: card.brand,
      cardLast4: card.last4,
    },
  });
  return {
    invoiceId,
    paymentId,
    idempotencyKey,
    amountCents,
    currency: sub.currency,
    token: card.token,
    account,
    offerId: sub.offerId,
    status: sub.status,
  };
}

export async function chargePlanChange(
  runtime: Runtime,
  input: {
    tenantId: string;
    subscriptionId: string;
    reservation: ProrationReservation;
    now: Date;
    apply: (tx: Tx, sub: Subscription, paymentId: string) => Promise<void>;
    /** The error for a declined charge (the API's 422, or the /pay page's card field). */
    declined: (code: string) => AppError;
    /** The customer is on our page with the card just typed (a migration link): charged on-session, not as a card on file. */
    onPage?: boolean;
  },
): Promise<void> {
  const prisma = runtime.db.prisma;
  const { tenantId, reservation: r, now } = input;
  const gw = { prisma, adapter: runtime.gateways.adapter(r.account.provider), account: accountRef(r.account), subscriptionId: input.subscriptionId, paymentId: r.paymentId, now };
  let verdict = await chargeCard(gw, { token: r.token, amountCents: r.amountCents, currency: r.currency, idempotencyKey: r.idempotencyKey, reference: r.invoiceId, offSession: input.onPage !== true });
  runtime.faults?.("after-gateway-charge");
  // One immediate look at the gateway's record before giving up (a timeout may still have charged).
  if (verdict.outcome === "unknown") verdict = (await askChargeOutcome(gw, r.invoiceId, r.idempotencyKey))?.verdict ?? verdict;
  // The verdict settles like any payment's (settle-payment.ts): approved and the subscription unchanged
  // applies the change with it; approved after a cancel (or a refund that revoked it) is a surplus,
  // refunded at once; declined or unheard voids the proration invoice.
  const outcome = await settlePayment(runtime, {
    tenantId,
    paymentId: r.paymentId,
    verdict,
    now,
    planChange: { expected: { offerId: r.offerId, status: r.status }, apply: input.apply },
  });
  if (outcome === "paid") return;
  if (outcome === "unknown") throw new AppError("conflict", { error: "the gateway did not confirm the proration charge; the plan was not changed" });
  if (outcome === "surplus" || outcome === "already_settled") throw new AppError("conflict", { error: "the subscription changed while the proration was being charged; the plan was not changed" });
  throw input.declined(verdict.detailCode || "declined");
}
