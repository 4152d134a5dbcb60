// The races the concurrency drill found, each replayed deterministically: the sandbox gateway is held
// at the charge (a gate on the adapter) while the competing request runs, then released.
import { newId } from "../../core/shared/ids.ts";
import { afterEach, describe, expect, it } from "vitest";
import { emitSubscriptionEvents } from "../../core/events/emit-subscription-events.ts";
import { lockSubscription } from "../../core/shared/lock-subscription.ts";
import { advanceClock, CARDS, events, makeOffer, subscribe, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { plusDays } from "../links/pay-helpers.ts";
import { tenantClock } from "./concurrency-setup.ts";

type ChargeToken = typeof import("../../core/gateways/sandbox-adapter.ts").SandboxAdapter.prototype.chargeToken;

/** Holds every card charge of one tenant at the gateway until released; `reached` resolves when the first one arrives. */
async function holdCharges(tenantId: string) {
  const sandbox = (await testService()).runtime.gateways.sandbox;
  const original: ChargeToken = sandbox.chargeToken.bind(sandbox);
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const arrived = new Promise<void>((r) => (reached = r));
  sandbox.chargeToken = async (account, req, now) => {
    if (account.tenantId === tenantId) {
      reached();
      await released;
    }
    return original(account, req, now);
  };
  restore = () => void (sandbox.chargeToken = original);
  return { reached: arrived, release };
}

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

async function dueRenewal(t: TestTenant, fields: Record<string, string> = {}): Promise<string> {
  const { subscription_id: id } = await subscribe(t.monthlyOfferId, fields);
  const t0 = await tenantClock(t);
  await post(`/v1/subscriptions/${id}/reschedule`, t.writeKey, { next_billing_at: plusDays(t0, 1) });
  await op(`mutation($t: ID!) { setRenewalsPaused(tenantId: $t, paused: true) { id } }`, { t: t.tenantId });
  await advanceClock(t, plusDays(t0, 1.1));
  await op(`mutation($t: ID!) { setRenewalsPaused(tenantId: $t, paused: false) { id } }`, { t: t.tenantId });
  return id;
}

describe("races found by the concurrency drill", () => {
  it("reschedule while a renewal is being charged (claimed, or at the gateway) is 409 fatura_em_voo; the renewal keeps the cadence", async () => {
    const t = await newTenant();
    const id = await dueRenewal(t);
    const due = (await subscription(t, id)).current_period_end;
    const prisma = (await testService()).runtime.db.prisma;
    // Claimed by the run (or charge-now) but its invoice not written yet: the lease alone says a charge is running.
    await prisma.subscription.update({ where: { id }, data: { billingLeaseUntil: new Date(Date.now() + 60_000) } });
    const claimed = await post(`/v1/subscriptions/${id}/reschedule`, t.writeKey, { next_billing_at: plusDays(await tenantClock(t), 20) });
    expect(claimed.status).toBe(409);
    expect(claimed.body.code).toBe("fatura_em_voo");
    await prisma.subscription.update({ where: { id }, data: { billingLeaseUntil: null } });
    // And once the charge is at the gateway.
    const gate = await holdCharges(t.tenantId);
    const charging = post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    await gate.reached;
    const moved = await post(`/v1/subscriptions/${id}/reschedule`, t.writeKey, { next_billing_at: plusDays(await tenantClock(t), 20) });
    gate.release();
    expect((await charging).body.message).toContain("run and paid");
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe("fatura_em_voo");
    // The renewal opened the period right after the one that fell due; nothing moved under it.
    const renewal = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: id, kind: "CYCLE", status: "PAID", periodStart: new Date(due) } });
    expect((await subscription(t, id)).current_period_end).toBe(renewal.periodEnd.toISOString());
    expect((await events(t, "subscription.updated")).filter((e) => e.data.subscription_id === id)).toHaveLength(1); // the setup's reschedule only
  });

  // charge-now's answer names the event to follow; a cancel that lands while the charge is at the
  // gateway closes the invoice, so the answer must not promise invoice.payment_failed (or invoice.paid).
  it.each([
    { card: CARDS.laterDeclines, answer: /invoice was closed meanwhile.*neither invoice.paid nor invoice.payment_failed follows/, follows: [] },
    { card: CARDS.ok, answer: /approved after its invoice was closed; it is refunded in full, follow payment.refunded/, follows: ["payment.refunded"] },
  ])("charge-now at the gateway while the subscription is canceled answers what follows ($card)", async ({ card, answer, follows }) => {
    const t = await newTenant();
    const id = await dueRenewal(t, { card_number: card });
    const before = new Set((await events(t)).map((e) => e.id));
    const gate = await holdCharges(t.tenantId);
    const charging = post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    await gate.reached;
    expect((await post(`/v1/subscriptions/${id}/cancel`, t.writeKey, { reason: "leaving" })).status).toBe(200);
    gate.release();
    const charged = await charging;
    expect(charged.status).toBe(202);
    expect(charged.body.message).toMatch(answer);
    const since = (await events(t)).filter((e) => !before.has(e.id)).map((e) => e.type);
    expect(since.filter((type) => type !== "subscription.canceled")).toEqual(follows);
  });

  it("a cancel while an upgrade's proration is at the gateway: 409, the plan unchanged and the proration refunded in full", async () => {
    const t = await newTenant();
    const max = await makeOffer(t, { priceCents: 9990 });
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const gate = await holdCharges(t.tenantId);
    const upgrading = post(`/v1/subscriptions/${id}/change-plan`, t.writeKey, { offer_id: max });
    await gate.reached;
    const canceled = await post(`/v1/subscriptions/${id}/cancel`, t.writeKey, { reason: "changed my mind" });
    gate.release();
    const upgrade = await upgrading;
    expect(canceled.status).toBe(200);
    expect(upgrade.status).toBe(409);
    const prisma = (await testService()).runtime.db.prisma;
    const proration = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: id, kind: "PRORATION" } });
    const payment = await prisma.payment.findFirstOrThrow({ where: { invoiceId: proration.id } });
    expect(proration.status).toBe("VOID");
    expect(payment).toMatchObject({ status: "REFUNDED", paidInvoiceId: null, refundedAmountCents: payment.amountCents, refundInFlight: false });
    const ledger = await prisma.sandboxCharge.findMany({ where: { tenantId: t.tenantId, OR: [{ reference: proration.id }, { reference: payment.gatewayChargeId }] } });
    expect(ledger.map((r) => [r.kind, r.status, r.amountCents]).sort()).toEqual([["card", "approved", payment.amountCents], ["refund", "refunded", payment.amountCents]].sort());
    const sub = await subscription(t, id);
    expect(sub.status).toBe("canceled");
    expect(sub.plan_id).toBe(t.planId);
    expect((await events(t)).filter((e) => e.data?.subscription_id === id).map((e) => e.type)).not.toContain("subscription.plan_changed");
  });

  it("a downgrade while an upgrade's proration is at the gateway is 409 conflict, not scheduled and then dropped", async () => {
    const t = await newTenant();
    const max = await makeOffer(t, { priceCents: 9990 });
    const lite = await makeOffer(t, { priceCents: 1990 });
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const gate = await holdCharges(t.tenantId);
    const upgrading = post(`/v1/subscriptions/${id}/change-plan`, t.writeKey, { offer_id: max });
    await gate.reached;
    const downgrade = await post(`/v1/subscriptions/${id}/change-plan`, t.writeKey, { offer_id: lite });
    gate.release();
    expect((await upgrading).status).toBe(200);
    expect(downgrade.status).toBe(409);
    expect(downgrade.body.code).toBe("conflict");
    expect((await events(t, "subscription.plan_change_scheduled")).filter((e) => e.data.subscription_id === id)).toHaveLength(0);
    expect((await subscription(t, id)).pending_offer).toBeNull();
  });

  // An open transaction beside the service's requests needs a second connection: PostgreSQL only.
  it.runIf(Boolean(process.env.DATABASE_URL))("payment.refunded waits for a change of its subscription in progress and carries the state after it", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const paymentId = (await subscription(t, id)).last_payment.payment_id;
    const prisma = (await testService()).runtime.db.prisma;
    let refunding: ReturnType<typeof post> | undefined;
    // Another action holds the subscription (as a scheduled cancel does) while the refund is asked.
    await prisma.$transaction(async (tx) => {
      await lockSubscription(tx, t.tenantId, id);
      await tx.subscription.update({ where: { id }, data: { cancelAtPeriodEnd: true } });
      await emitSubscriptionEvents(tx, { tenantId: t.tenantId, subscriptionId: id, types: ["subscription.updated"], at: new Date(await tenantClock(t)) });
      refunding = post(`/v1/payments/${paymentId}/refund`, t.writeKey, { amount_cents: 100, reason: "courtesy" });
      await new Promise((r) => setTimeout(r, 400));
    }, { timeout: 20_000 });
    expect((await refunding!).status).toBe(200);
    const mine = (await events(t)).filter((e) => e.data?.subscription_id === id);
    const refunded = mine.find((e) => e.type === "payment.refunded")!;
    expect(refunded.id > mine.find((e) => e.type === "subscription.updated")!.id).toBe(true);
    expect(refunded.data.cancel_at_period_end).toBe(true);
  });

  it("the database backs the invariants: one open proration per subscription, a canceled subscription is never billed again, paid links only on paid payments", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const prisma = (await testService()).runtime.db.prisma;
    const refused = (p: Promise<unknown>) => p.then(() => "accepted", (err) => String(err?.message ?? err));
    const invoice = (n: number) =>
      prisma.invoice.create({
        data: { id: newId("invoice"), tenantId: t.tenantId, subscriptionId: id, kind: "PRORATION", periodStart: new Date(Date.UTC(2030, 0, n)), periodEnd: new Date(Date.UTC(2030, 1, 1)), dueAt: new Date(), amountCents: 100, currency: "BRL" },
      });
    await invoice(1);
    expect(await refused(invoice(2))).toMatch(/invoices_one_open_proration|unique/i);
    expect(await refused(prisma.subscription.update({ where: { id }, data: { status: "CANCELED", canceledAt: new Date() } }))).toMatch(/subscriptions_canceled_is_final/);
    const payment = await prisma.payment.findFirstOrThrow({ where: { subscriptionId: id } });
    // paid -> failed is refused first by the status transition trigger; the CHECK still guards a row born failed.
    expect(await refused(prisma.payment.update({ where: { id: payment.id }, data: { status: "FAILED" } }))).toMatch(/payments_status_transition/);
    const { id: _id, idempotencyKey: _key, paidInvoiceId: _paid, ...rest } = payment;
    const bornFailed = { ...rest, id: `${payment.id}X`, idempotencyKey: `${payment.idempotencyKey}:x`, status: "FAILED" as const, paidOrderId: "ord_0000000000000000000000000X" };
    expect(await refused(prisma.payment.create({ data: bornFailed }))).toMatch(/payments_paid_link_only_when_paid/);
  });
});
