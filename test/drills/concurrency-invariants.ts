// What must hold after the race, read from the answers, the outbox (GET /v1/events), our records and
// the sandbox gateway's own ledger (sandbox_charges) and call log (gateway_events). Every failed
// check is collected with its subject, so one run shows all of them.
import { isDeepStrictEqual } from "node:util";
import { SURPLUS_REFUND_REASON } from "../../core/payments/refund-surplus-payment.ts";
import { canMove } from "../../core/shared/transition.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";
import { events, subscription } from "../helpers/billing.ts";
import { testService } from "../helpers/service.ts";
import type { DrillWorld } from "./concurrency-setup.ts";
import type { CallRecord, Recorder } from "./drill-kit.ts";
import type { Route } from "./concurrency-race.ts";

export class Checker {
  checked = 0;
  readonly failures: string[] = [];
  /** What a failing subscription went through (its calls, events and records), printed with the failures. */
  readonly stories: string[] = [];
  check(ok: boolean, what: string): void {
    this.checked++;
    if (!ok) this.failures.push(what);
  }
}

/** Statuses the contract (and docs/reference/) list per route, and the codes a 409 may carry. */
const ALLOWED: Record<Route, { statuses: number[]; conflictCodes: string[] }> = {
  "charge-now": { statuses: [202, 409], conflictCodes: ["not_chargeable", "idempotency_key_in_use"] },
  refund: { statuses: [200, 409, 422], conflictCodes: ["idempotency_key_in_use"] },
  "change-plan": { statuses: [200, 409, 422], conflictCodes: ["conflict", "idempotency_key_in_use"] },
  cancel: { statuses: [200, 409, 422], conflictCodes: ["idempotency_key_in_use"] },
  "undo-cancel": { statuses: [200, 409, 422], conflictCodes: ["idempotency_key_in_use"] },
  reschedule: { statuses: [200, 409, 422], conflictCodes: ["fatura_em_voo", "idempotency_key_in_use"] },
};

const STATE_FIELDS = ["status", "cancel_at_period_end", "current_period_end", "plan_id", "interval", "pending_offer", "next_charge_amount_cents", "payment_method", "collection_method"];
const state = (payload: any) => Object.fromEntries(STATE_FIELDS.map((f) => [f, payload?.[f] ?? null]));

export interface Snapshot {
  lastEventId: string;
  payments: Set<string>;
  statuses: Map<string, any>;
}

export async function snapshot(world: DrillWorld): Promise<Snapshot> {
  const prisma = (await testService()).runtime.db.prisma;
  const all = await events(world.t);
  const payments = await prisma.payment.findMany({ where: { tenantId: world.t.tenantId }, select: { id: true } });
  const statuses = new Map<string, any>();
  for (const s of world.subs) statuses.set(s.id, await subscription(world.t, s.id));
  return { lastEventId: all.at(-1)?.id ?? "", payments: new Set(payments.map((p) => p.id)), statuses };
}

/** The first answer under each key (or each call without one): the calls that did something. */
function originals(calls: CallRecord[]): CallRecord[] {
  return calls.filter((c) => !c.replayed && !(c.status === 409 && c.json?.code === "idempotency_key_in_use"));
}

export function checkAnswers(k: Checker, recorder: Recorder): void {
  for (const c of recorder.calls) {
    const where = `${c.route} ${c.target} #${c.client}.${c.step}`;
    k.check(c.status < 500, `${where}: ${c.status} ${c.text}`);
    const allowed = ALLOWED[c.route as Route];
    k.check(allowed.statuses.includes(c.status), `${where}: status ${c.status} not listed for the route (${c.text})`);
    if (c.status === 409) k.check(allowed.conflictCodes.includes(c.json?.code), `${where}: 409 with code ${c.json?.code} (${c.text})`);
    if (c.route === "charge-now" && c.status === 202) k.check(c.json?.ok === true, `${where}: 202 without ok`);
    if (c.route === "refund" && c.status === 200) k.check(c.json?.level === "success", `${where}: refund answered ${c.text}`);
  }
  // Idempotent replays: one original per key, every replay the original's answer byte for byte.
  const byKey = new Map<string, CallRecord[]>();
  for (const c of recorder.calls) if (c.key) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  for (const [key, calls] of byKey) {
    const answered = calls.filter((c) => !(c.status === 409 && c.json?.code === "idempotency_key_in_use"));
    const first = answered.filter((c) => !c.replayed);
    k.check(first.length === 1, `key ${key}: ${first.length} original answers`);
    for (const c of answered.filter((x) => x.replayed)) {
      k.check(c.status === first[0]?.status && c.text === first[0]?.text, `key ${key}: replay ${c.status} ${c.text} differs from ${first[0]?.status} ${first[0]?.text}`);
    }
  }
}

export async function checkSubscriptions(k: Checker, world: DrillWorld, recorder: Recorder, before: Snapshot): Promise<void> {
  const prisma = (await testService()).runtime.db.prisma;
  const all = (await events(world.t)).filter((e) => e.id > before.lastEventId);
  for (const s of world.subs) {
    const failedBefore = k.failures.length;
    const mine = all.filter((e) => e.data?.subscription_id === s.id);
    const lifecycle = mine.filter((e) => e.type !== "payment.refunded");
    const calls = originals(recorder.calls.filter((c) => c.target === s.name));
    const ok = (route: Route, pred: (c: CallRecord) => boolean = () => true) => calls.filter((c) => c.route === route && c.status < 300 && pred(c)).length;
    const count = (type: string) => mine.filter((e) => e.type === type).length;

    // Statuses only move along the transition table; each event type carries its own status.
    let prev = before.statuses.get(s.id);
    let undone = 0;
    let scheduled = 0;
    let rescheduled = 0;
    // A payment.refunded carries the subscription as it stood at the refund: the state of the event
    // before it, or of the one right after (the cancellation a revoking refund announces).
    for (const e of mine.filter((x) => x.type === "payment.refunded")) {
      const prior = lifecycle.filter((x) => x.id < e.id).at(-1)?.data ?? before.statuses.get(s.id);
      const after = lifecycle.find((x) => x.id > e.id)?.data;
      k.check(isDeepStrictEqual(state(e.data), state(prior)) || (after !== undefined && isDeepStrictEqual(state(e.data), state(after))), `${s.name}: payment.refunded ${e.id} carries ${JSON.stringify(state(e.data))}, neither the state before nor after it`);
    }
    for (const e of lifecycle) {
      const from = String(prev.status).toUpperCase() as never;
      const to = String(e.data.status).toUpperCase() as never;
      k.check(from === to || canMove(SUBSCRIPTION, from, to), `${s.name}: ${e.type} moves ${prev.status} -> ${e.data.status}`);
      const expectStatus: Record<string, string> = { "subscription.canceled": "canceled", "subscription.past_due": "past_due", "invoice.paid": "active", "subscription.plan_changed": "active" };
      if (expectStatus[e.type]) k.check(e.data.status === expectStatus[e.type], `${s.name}: ${e.type} with status ${e.data.status}`);
      if (e.type === "subscription.plan_change_scheduled") k.check(e.data.pending_offer !== null, `${s.name}: plan_change_scheduled without pending_offer`);
      // A renewal opens the period right after the one the subscription is in (a reschedule accepted
      // meanwhile must not be overwritten by a charge that was already running).
      if (e.type === "invoice.paid") {
        const paid = await prisma.payment.findFirst({ where: { id: e.data.last_payment?.payment_id ?? "" }, select: { invoiceId: true } });
        const invoice = paid?.invoiceId ? await prisma.invoice.findUnique({ where: { id: paid.invoiceId } }) : null;
        if (invoice?.kind === "CYCLE") k.check(invoice.periodStart.toISOString() === prev.current_period_end, `${s.name}: renewal of the period from ${invoice.periodStart.toISOString()} while the subscription's period ended ${prev.current_period_end}`);
      }
      if (e.type === "subscription.updated" && e.data.status === prev.status) {
        if (prev.cancel_at_period_end && !e.data.cancel_at_period_end) undone++;
        else if (!prev.cancel_at_period_end && e.data.cancel_at_period_end) scheduled++;
        else if (e.data.current_period_end !== prev.current_period_end) rescheduled++;
      }
      prev = e.data;
    }
    const final = await subscription(world.t, s.id);
    k.check(isDeepStrictEqual(state(final), state(prev)), `${s.name}: state ${JSON.stringify(state(final))} is not the last event's ${JSON.stringify(state(prev))}`);

    // Every accepted change has exactly one event.
    k.check(count("subscription.canceled") === (final.status === "canceled" ? 1 : 0), `${s.name}: ${count("subscription.canceled")} subscription.canceled, final ${final.status}`);
    k.check(undone === ok("undo-cancel"), `${s.name}: ${ok("undo-cancel")} undo answered 200, ${undone} undo events`);
    k.check(scheduled <= ok("cancel", (c) => (c.body as any).at_period_end === true), `${s.name}: ${scheduled} scheduling events for fewer accepted schedules`);
    k.check(rescheduled === ok("reschedule"), `${s.name}: ${ok("reschedule")} reschedules answered 200, ${rescheduled} reschedule events`);
    const changed = (effect: string, charged?: boolean) =>
      ok("change-plan", (c) => c.json?.plan_change?.effect === effect && (charged === undefined || c.json.plan_change.charge_cents > 0 === charged));
    k.check(count("subscription.plan_change_scheduled") === changed("scheduled"), `${s.name}: ${changed("scheduled")} scheduled changes, ${count("subscription.plan_change_scheduled")} events`);
    k.check(count("subscription.plan_changed") === changed("immediate"), `${s.name}: ${changed("immediate")} immediate changes, ${count("subscription.plan_changed")} events`);
    const chargedPaid = ok("charge-now", (c) => /run and paid/.test(c.json?.message));
    const chargedRefused = ok("charge-now", (c) => /run and refused/.test(c.json?.message));
    k.check(count("invoice.paid") === chargedPaid + changed("immediate", true), `${s.name}: ${count("invoice.paid")} invoice.paid for ${chargedPaid} paid charge-now and ${changed("immediate", true)} charged changes`);
    k.check(count("invoice.payment_failed") === chargedRefused, `${s.name}: ${count("invoice.payment_failed")} invoice.payment_failed for ${chargedRefused} refused charge-now`);
    const refunds = await prisma.refund.count({ where: { tenantId: world.t.tenantId, status: "SUCCEEDED", payment: { subscriptionId: s.id } } });
    k.check(count("payment.refunded") === refunds, `${s.name}: ${count("payment.refunded")} payment.refunded for ${refunds} refunds`);
    if (k.failures.length > failedBefore) k.stories.push(await story(world, s, calls, mine));
  }
}

export interface LedgerFigures {
  chargeCalls: number;
  approvedCharges: number;
  refundCalls: number;
  statusCalls: number;
  chargedCents: number;
  refundedCents: number;
}

export async function checkLedger(k: Checker, world: DrillWorld, recorder: Recorder, before: Snapshot): Promise<LedgerFigures> {
  const prisma = (await testService()).runtime.db.prisma;
  const tenantId = world.t.tenantId;
  const [invoices, payments, refunds, ledger, calls] = await Promise.all([
    prisma.invoice.findMany({ where: { tenantId } }),
    prisma.payment.findMany({ where: { tenantId }, include: { items: true } }),
    prisma.refund.findMany({ where: { tenantId } }),
    prisma.sandboxCharge.findMany({ where: { tenantId } }),
    prisma.gatewayEvent.findMany({ where: { tenantId } }),
  ]);
  const settled = (p: { status: string }) => ["PAID", "REFUNDED", "CHARGEDBACK"].includes(p.status);
  const sentToGateway = (p: (typeof payments)[number]) => p.method === "CARD" && p.failureCode !== "no_payment_method";

  // No invoice is paid twice; money approved beside the paying payment is a surplus, refunded in full.
  for (const inv of invoices) {
    const paying = payments.filter((p) => p.paidInvoiceId === inv.id);
    k.check(paying.length <= 1, `invoice ${inv.id}: ${paying.length} paying payments`);
    k.check((inv.status === "PAID") === (paying.length === 1 || (inv.amountCents === 0 && inv.status === "PAID")), `invoice ${inv.id} ${inv.status} with ${paying.length} paying payments`);
    for (const p of payments.filter((x) => x.invoiceId === inv.id && settled(x) && x.paidInvoiceId !== inv.id)) {
      k.check(p.refundReason === SURPLUS_REFUND_REASON && p.refundedAmountCents === p.amountCents, `invoice ${inv.id}: approved payment ${p.id} neither pays it nor was refunded as surplus`);
    }
  }
  // Refunded amounts are the sum of the refunds, never above the amount, spread over the items.
  for (const p of payments) {
    const mine = refunds.filter((r) => r.paymentId === p.id);
    const sum = mine.filter((r) => r.status === "SUCCEEDED").reduce((s, r) => s + r.amountCents, 0);
    k.check(p.refundedAmountCents === sum, `payment ${p.id}: refunded ${p.refundedAmountCents}, refunds sum ${sum}`);
    k.check(p.refundedAmountCents <= p.amountCents, `payment ${p.id}: refunded ${p.refundedAmountCents} > ${p.amountCents}`);
    k.check(!p.refundInFlight && !mine.some((r) => r.status === "PENDING"), `payment ${p.id}: a refund is still in flight`);
    if (settled(p) && p.status !== "CHARGEDBACK") k.check((p.status === "REFUNDED") === (p.refundedAmountCents === p.amountCents), `payment ${p.id}: ${p.status} with ${p.refundedAmountCents}/${p.amountCents} refunded`);
    const items = p.items.reduce((s, i) => s + i.refundedAmountCents, 0);
    if (p.items.length) k.check(items === p.refundedAmountCents, `payment ${p.id}: items refunded ${items}, payment ${p.refundedAmountCents}`);
  }

  // The gateway's ledger: one charge per attempt (by idempotency key), one refund per refund.
  const cards = ledger.filter((r) => r.kind === "card");
  const gwRefunds = ledger.filter((r) => r.kind === "refund");
  for (const row of cards) {
    const mine = payments.filter((p) => p.idempotencyKey === row.idempotencyKey);
    k.check(mine.length === 1, `gateway charge ${row.idempotencyKey}: ${mine.length} payments`);
    const p = mine[0];
    if (!p) continue;
    k.check((row.status === "approved") === settled(p), `gateway charge ${row.idempotencyKey} ${row.status}, payment ${p.status}`);
    k.check(row.amountCents === p.amountCents && row.refundedCents === p.refundedAmountCents, `gateway charge ${row.idempotencyKey}: ${row.amountCents}/${row.refundedCents} vs payment ${p.amountCents}/${p.refundedAmountCents}`);
  }
  for (const p of payments.filter(sentToGateway)) {
    k.check(cards.filter((r) => r.idempotencyKey === p.idempotencyKey).length === 1, `payment ${p.id} (${p.status}): not exactly one gateway charge`);
  }
  for (const row of gwRefunds) {
    const r = refunds.find((x) => x.idempotencyKey === row.idempotencyKey);
    k.check(Boolean(r) && (row.status === "refunded") === (r!.status === "SUCCEEDED") && row.amountCents === r!.amountCents, `gateway refund ${row.idempotencyKey}: ${row.status} ${row.amountCents} vs ${r?.status} ${r?.amountCents}`);
  }
  for (const r of refunds) k.check(gwRefunds.filter((x) => x.idempotencyKey === r.idempotencyKey).length === 1, `refund ${r.id}: not exactly one gateway refund`);
  const gwMoney = cards.filter((r) => r.status === "approved").reduce((s, r) => s + r.amountCents, 0) - gwRefunds.filter((r) => r.status === "refunded").reduce((s, r) => s + r.amountCents, 0);
  const ourMoney = payments.filter(settled).reduce((s, p) => s + p.amountCents, 0) - refunds.filter((r) => r.status === "SUCCEEDED").reduce((s, r) => s + r.amountCents, 0);
  k.check(gwMoney === ourMoney, `money: gateway moved ${gwMoney}, our records say ${ourMoney}`);

  // The call log (gateway_events) of the race: one charge_card per new attempt, per invoice exactly the attempts.
  const fresh = payments.filter((p) => !before.payments.has(p.id));
  for (const p of fresh.filter(sentToGateway)) {
    const n = calls.filter((c) => c.kind === "charge_card" && c.paymentId === p.id).length;
    k.check(n === 1, `payment ${p.id}: ${n} charge_card calls`);
  }
  for (const inv of invoices.filter((i) => fresh.some((p) => p.invoiceId === i.id))) {
    const attempts = payments.filter((p) => p.invoiceId === inv.id && sentToGateway(p)).length;
    const logged = calls.filter((c) => c.kind === "charge_card" && c.code === inv.id).length;
    const charged = cards.filter((r) => r.reference === inv.id).length;
    k.check(attempts === logged && logged === charged, `invoice ${inv.id}: ${attempts} attempts, ${logged} charge_card calls, ${charged} gateway charges`);
  }
  for (const p of payments) {
    const n = calls.filter((c) => c.kind === "refund" && c.paymentId === p.id).length;
    const m = refunds.filter((r) => r.paymentId === p.id).length;
    k.check(n === m, `payment ${p.id}: ${n} refund calls for ${m} refunds`);
  }

  // Answers against records: each accepted refund is one refund; each charged change one paid proration.
  const acceptedRefunds = originals(recorder.of("refund")).filter((c) => c.status === 200).length;
  const drillRefunds = refunds.filter((r) => r.reason !== SURPLUS_REFUND_REASON && r.status === "SUCCEEDED").length;
  k.check(acceptedRefunds === drillRefunds, `${acceptedRefunds} refunds answered 200, ${drillRefunds} refunds recorded`);
  // (A proration approved after the subscription moved pays nothing: it is a surplus, checked above.)
  const prorations = payments.filter((p) => p.paidInvoiceId && invoices.find((i) => i.id === p.paidInvoiceId)?.kind === "PRORATION").length;
  const charged = originals(recorder.of("change-plan")).filter((c) => c.status === 200 && c.json?.plan_change?.charge_cents > 0).length;
  k.check(prorations === charged, `${charged} charged plan changes answered 200, ${prorations} paid prorations`);

  return {
    chargeCalls: calls.filter((c) => c.kind === "charge_card" && fresh.some((p) => p.id === c.paymentId)).length,
    approvedCharges: cards.filter((r) => r.status === "approved" && fresh.some((p) => p.idempotencyKey === r.idempotencyKey)).length,
    refundCalls: calls.filter((c) => c.kind === "refund").length,
    statusCalls: calls.filter((c) => c.kind === "fetch_status").length,
    chargedCents: cards.filter((r) => r.status === "approved").reduce((s, r) => s + r.amountCents, 0),
    refundedCents: gwRefunds.filter((r) => r.status === "refunded").reduce((s, r) => s + r.amountCents, 0),
  };
}

/** A failing subscription's race, to read in the log: a flake under load shows its evidence once. */
async function story(world: DrillWorld, s: DrillWorld["subs"][number], calls: CallRecord[], mine: { id: string; type: string; data: any }[]): Promise<string> {
  const prisma = (await testService()).runtime.db.prisma;
  const where = { tenantId: world.t.tenantId, subscriptionId: s.id };
  const [payments, invoices] = await Promise.all([
    prisma.payment.findMany({ where, orderBy: { id: "asc" }, select: { id: true, invoiceId: true, paidInvoiceId: true, status: true, amountCents: true, refundedAmountCents: true } }),
    prisma.invoice.findMany({ where, orderBy: { id: "asc" }, select: { id: true, kind: true, status: true, periodStart: true } }),
  ]);
  const lines = [
    `${s.name} (${s.id}):`,
    ...calls.map((c) => `  call #${c.client}.${c.step} ${c.route} -> ${c.status} ${c.text.slice(0, 160)}`),
    ...mine.map((e) => `  event ${e.id} ${e.type} status=${e.data?.status} period_end=${e.data?.current_period_end} last_payment=${e.data?.last_payment?.payment_id ?? null}`),
    ...payments.map((p) => `  payment ${JSON.stringify(p)}`),
    ...invoices.map((i) => `  invoice ${JSON.stringify(i)}`),
  ];
  return lines.join("\n");
}
