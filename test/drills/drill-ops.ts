// The four operations the drills crash: what each sets up through the public surfaces, how it is
// fired, where it may be killed, how far the tenant's clock goes, and what must hold afterwards
// beyond the four common properties (drill-checks.ts).
import { CARDS } from "../helpers/billing.ts";
import type { DrillDb } from "./drill-checks.ts";
import type { DrillReceiver } from "./drill-receiver.ts";
import { drillTenant, type DrillService, type DrillTenant } from "./drill-service.ts";

export const T0 = "2027-01-10T09:00:00.000Z";
const iso = (base: string, ms: number) => new Date(Date.parse(base) + ms).toISOString();
const DAY = 86_400_000;

export interface Ctx {
  svc: DrillService;
  db: DrillDb;
  receiver: DrillReceiver;
  rng: () => number;
  trial: number;
}

export interface Setup {
  tenant: DrillTenant;
  /** Where the tenant's clock goes (the operation's own target; recovery advances to it). */
  target: string;
  hooks: { all: string; paidOnly: string };
  [k: string]: unknown;
}

export interface Op {
  name: string;
  /** Fault points with the highest hit number worth aiming at. */
  killPoints: { point: string; max: number }[];
  /** Random wall-clock kills fall in [0, maxDelayMs) after firing. */
  maxDelayMs: number;
  setup(ctx: Ctx): Promise<Setup>;
  fire(ctx: Ctx, s: Setup): Promise<unknown>;
  /** Operation-specific outcome checks (violations). */
  expect(ctx: Ctx, s: Setup): Promise<string[]>;
}

async function tenantFor(ctx: Ctx, op: string): Promise<Setup> {
  const hooks = { all: ctx.receiver.url(`/t${ctx.trial}/all`), paidOnly: ctx.receiver.url(`/t${ctx.trial}/paid`) };
  const tenant = await drillTenant(ctx.svc, `drill ${op} ${ctx.trial}`, hooks, T0);
  return { tenant, target: T0, hooks };
}

async function subscribeCard(ctx: Ctx, s: Setup, n: number, card: string = CARDS.ok): Promise<string> {
  const ext = `t${ctx.trial}-c${n}`;
  const res = await ctx.svc.checkout(s.tenant.basicOfferId, ext, card);
  if (res.status !== 201 || !res.body?.subscription_id) throw new Error(`checkout refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.subscription_id as string;
}

async function subRow(ctx: Ctx, id: string) {
  const [row] = await ctx.db.rows(`SELECT id, status::text AS status, offer_id, current_period_end, last_payment_id FROM subscriptions WHERE id = $1`, [id]);
  return row;
}

/** The billing pass: five card renewals (one card declines from its second charge) in advanceClock's pass. */
export const billingPass: Op = {
  name: "billing pass",
  killPoints: [
    { point: "after-gateway-charge", max: 5 },
    { point: "after-commit", max: 2 },
    { point: "billing-mid-batch", max: 2 },
    { point: "after-webhook-post", max: 8 },
  ],
  maxDelayMs: 700,
  async setup(ctx) {
    const s = await tenantFor(ctx, "billing");
    const subs: string[] = [];
    for (let i = 0; i < 4; i++) subs.push(await subscribeCard(ctx, s, i));
    const declining = await subscribeCard(ctx, s, 4, CARDS.laterDeclines);
    return { ...s, target: iso(T0, 31 * DAY + 3_600_000), subs, declining };
  },
  fire: (ctx, s) => ctx.svc.advanceClock(s.tenant.tenantId, s.target),
  async expect(ctx, s) {
    const v: string[] = [];
    // Killed before advanceClock moved the clock to the renewals (e.g. at a webhook POST of the set-up's
    // events): the pass never started, so nothing may have moved; the operator would simply retry.
    const [tenant] = await ctx.db.rows(`SELECT clock_at FROM tenants WHERE id = $1`, [s.tenant.tenantId]);
    // advanceClock walks the clock in steps: once it reached the renewal instant (Feb 10), the pass was due.
    const ran = tenant.clock_at.getTime() >= Date.parse("2027-02-10T09:00:00.000Z");
    const want = ran ? { end: "2027-03-10T09:00:00.000Z", declining: "PAST_DUE" } : { end: "2027-02-10T09:00:00.000Z", declining: "ACTIVE" };
    for (const id of s.subs as string[]) {
      const row = await subRow(ctx, id);
      // Renewed exactly once: one cycle on from the checkout's period (Feb 10 -> Mar 10), or untouched.
      if (row.status !== "ACTIVE" || row.current_period_end.toISOString() !== want.end) {
        v.push(`billing: ${id} is ${row.status} until ${row.current_period_end?.toISOString()}, expected ACTIVE until ${want.end} (pass ${ran ? "ran" : "never started"})`);
      }
    }
    const dec = await subRow(ctx, s.declining as string);
    if (dec.status !== want.declining) v.push(`billing: declining card subscription ${dec.id} is ${dec.status}, expected ${want.declining} (pass ${ran ? "ran" : "never started"})`);
    return v;
  },
};

/** A refund through /v1: total (revoking the subscription) or partial (courtesy), at random. */
export const refund: Op = {
  name: "refund",
  killPoints: [
    { point: "after-commit", max: 2 },
    { point: "after-gateway-refund", max: 1 },
    { point: "after-webhook-post", max: 4 },
  ],
  maxDelayMs: 250,
  async setup(ctx) {
    const s = await tenantFor(ctx, "refund");
    const sub = await subscribeCard(ctx, s, 0);
    await subscribeCard(ctx, s, 1); // a bystander
    const paymentId = (await subRow(ctx, sub)).last_payment_id as string;
    const total = ctx.rng() < 0.5;
    return { ...s, sub, paymentId, total, amount: total ? 4990 : 1000 };
  },
  fire: (ctx, s) =>
    ctx.svc.v1("POST", `/payments/${s.paymentId}/refund`, s.tenant.writeKey, {
      amount_cents: s.amount,
      reason: "crash drill",
      ...(s.total ? {} : { revoke: "none" }),
    }),
  async expect(ctx, s) {
    const v: string[] = [];
    const [p] = await ctx.db.rows(`SELECT status::text AS status, refunded_amount_cents FROM payments WHERE id = $1`, [s.paymentId]);
    const row = await subRow(ctx, s.sub as string);
    // The request may have died before its reservation committed (nothing refunded), never half-way.
    if (![0, s.amount].includes(p.refunded_amount_cents)) v.push(`refund: payment refunded ${p.refunded_amount_cents}, expected 0 or ${s.amount}`);
    const refunded = p.refunded_amount_cents === s.amount;
    const want = refunded && s.total ? ["REFUNDED", "CANCELED"] : ["PAID", "ACTIVE"];
    if (p.status !== want[0] || row.status !== want[1]) v.push(`refund: payment ${p.status} / subscription ${row.status}, expected ${want.join(" / ")}`);
    return v;
  },
};

/** An immediate upgrade (Basic -> Pro) ten days into the period: a proration charged on the card. */
export const planChange: Op = {
  name: "plan change",
  killPoints: [
    { point: "after-gateway-charge", max: 1 },
    { point: "after-commit", max: 1 },
    { point: "after-webhook-post", max: 4 },
  ],
  maxDelayMs: 300,
  async setup(ctx) {
    const s = await tenantFor(ctx, "plan");
    const sub = await subscribeCard(ctx, s, 0);
    const target = iso(T0, 10 * DAY);
    await ctx.svc.advanceClock(s.tenant.tenantId, target);
    return { ...s, target, sub };
  },
  fire: (ctx, s) => ctx.svc.v1("POST", `/subscriptions/${s.sub}/change-plan`, s.tenant.writeKey, { offer_id: s.tenant.proOfferId }),
  async expect(ctx, s) {
    const v: string[] = [];
    const row = await subRow(ctx, s.sub as string);
    const paid = await ctx.db.rows(
      `SELECT p.id FROM payments p JOIN invoices i ON i.id = p.invoice_id
       WHERE i.subscription_id = $1 AND i.kind = 'PRORATION' AND p.status = 'PAID' AND p.refunded_amount_cents < p.amount_cents`,
      [s.sub],
    );
    const upgraded = row.offer_id === s.tenant.proOfferId;
    if (row.status !== "ACTIVE") v.push(`plan change: subscription is ${row.status}`);
    // Paid for the upgrade if and only if it applied: never charged for a change that did not happen.
    if (upgraded && paid.length !== 1) v.push(`plan change: upgraded with ${paid.length} paid prorations`);
    if (!upgraded && paid.length) v.push(`plan change: proration ${paid.map((p) => p.id).join(",")} kept but the plan was not changed`);
    if (upgraded) {
      const [ev] = await ctx.db.rows(`SELECT count(*)::int AS n FROM events WHERE tenant_id = $1 AND type = 'subscription.plan_changed'`, [s.tenant.tenantId]);
      if (ev.n !== 1) v.push(`plan change: upgraded with ${ev.n} subscription.plan_changed events`);
    }
    return v;
  },
};

/**
 * Webhook delivery: either the background dispatcher sending what three checkouts emit, or
 * advanceClock re-sending a backlog whose first attempts were answered 500 (retry path).
 */
export const webhookDelivery: Op = {
  name: "webhook delivery",
  killPoints: [{ point: "after-webhook-post", max: 10 }],
  maxDelayMs: 400,
  async setup(ctx) {
    const s = await tenantFor(ctx, "webhooks");
    const retryPath = ctx.trial % 2 === 1;
    const prefix = `/t${ctx.trial}/`;
    const prev = ctx.receiver.answer;
    ctx.receiver.answer = (path, eventId, nth) => {
      if (!path.startsWith(prefix)) return prev(path, eventId, nth);
      if (retryPath && nth === 1) return { delayMs: 0, status: 500 };
      return { delayMs: Math.floor(ctx.rng() * 60), status: 200 };
    };
    if (retryPath) {
      for (let i = 0; i < 3; i++) await subscribeCard(ctx, s, i);
      await waitFor(async () => {
        const [r] = await ctx.db.rows(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND attempt_count = 0`, [s.tenant.tenantId]);
        return r.n === 0;
      });
    }
    return { ...s, target: retryPath ? iso(T0, 5 * 60_000) : T0, retryPath };
  },
  async fire(ctx, s) {
    if (s.retryPath) return ctx.svc.advanceClock(s.tenant.tenantId, s.target);
    for (let i = 0; i < 3; i++) await subscribeCard(ctx, s, 10 + i);
  },
  async expect(ctx, s) {
    const [r] = await ctx.db.rows(`SELECT count(*)::int AS n FROM events WHERE tenant_id = $1`, [s.tenant.tenantId]);
    return r.n >= 6 || !s.retryPath ? [] : [`webhooks: only ${r.n} events recorded`];
  },
};

export async function waitFor(pred: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
