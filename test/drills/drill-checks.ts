// The four properties a drill asserts after recovery, read straight from the database (and the
// loopback receiver), for one tenant:
//   money   at most one approved sandbox charge per invoice/order net of refunds, at most one sandbox
//           refund per refund, every approved charge recorded as a paid payment, and the gateway's
//           refunded amount equal to ours;
//   events  every event fanned out to every subscribed endpoint and answered 2xx there;
//   states  every subscription's status history (its events) follows the transition table, and its
//           current state agrees with its last event, its invoices and its payments;
//   drained nothing PENDING, in flight or leased is left (refunds, payments, deliveries, claims).
import pg from "pg";
import type { SubscriptionStatus } from "../../generated/prisma/client.ts";
import { pgPoolConfig } from "../../prisma/connection.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";

export interface CheckResult {
  violations: string[];
  charges: number;
  refunds: number;
  events: number;
  subscriptions: number;
}

export class DrillDb {
  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<DrillDb> {
    const client = new pg.Client(pgPoolConfig(url));
    await client.connect();
    return new DrillDb(client);
  }

  async rows<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(sql, params)).rows as T[];
  }

  close(): Promise<void> {
    return this.client.end();
  }

  /** What still stands between this tenant and a settled state (empty when recovered). */
  async unsettled(tenantId: string): Promise<string[]> {
    const [r] = await this.rows<Record<string, number>>(
      `SELECT
         (SELECT count(*)::int FROM payments WHERE tenant_id = $1 AND (status IN ('PROCESSING', 'UNKNOWN') OR refund_in_flight)) AS payments,
         (SELECT count(*)::int FROM refunds WHERE tenant_id = $1 AND status = 'PENDING') AS refunds,
         (SELECT count(*)::int FROM checkout_charge_intents WHERE tenant_id = $1) AS checkout_charge_intents,
         (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING') AS deliveries,
         (SELECT count(*)::int FROM subscriptions s JOIN tenants t ON t.id = s.tenant_id
           WHERE s.tenant_id = $1 AND s.next_billing_at <= t.clock_at) AS due_subscriptions,
         (SELECT count(*)::int FROM invoices WHERE tenant_id = $1 AND kind = 'PRORATION' AND status = 'OPEN') AS open_prorations`,
      [tenantId],
    );
    return Object.entries(r!).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  }

  async check(tenantId: string, delivered: (endpointUrl: string) => Set<string>): Promise<CheckResult> {
    const v: string[] = [];
    const q = <T = any>(sql: string) => this.rows<T>(sql, [tenantId]);

    // --- money ---
    const charges = await q(`SELECT id, idempotency_key, reference, amount_cents, status, refunded_cents FROM sandbox_charges WHERE tenant_id = $1 AND kind = 'card'`);
    const netPerRef = new Map<string, number>();
    for (const c of charges) if (c.status === "approved" && c.refunded_cents < c.amount_cents) netPerRef.set(c.reference, (netPerRef.get(c.reference) ?? 0) + 1);
    for (const [ref, n] of netPerRef) if (n > 1) v.push(`money: ${ref} has ${n} approved sandbox charges not refunded`);
    const payments = await q(`SELECT id, idempotency_key, status, amount_cents, refunded_amount_cents, gateway_charge_id, invoice_id, refund_in_flight FROM payments WHERE tenant_id = $1`);
    const payByKey = new Map(payments.map((p) => [p.idempotency_key, p]));
    for (const c of charges.filter((c) => c.status === "approved")) {
      const p = payByKey.get(c.idempotency_key);
      // A checkout that died between its charge and its records: the money must have gone back.
      if (!p) {
        if (c.refunded_cents !== c.amount_cents) v.push(`money: approved charge ${c.id} (${c.idempotency_key}) has no payment and was not given back`);
      } else if (!["PAID", "REFUNDED", "CHARGEDBACK"].includes(p.status)) v.push(`money: charge ${c.id} approved at the gateway, payment ${p.id} is ${p.status}`);
      else if (p.refunded_amount_cents !== c.refunded_cents) v.push(`money: payment ${p.id} says ${p.refunded_amount_cents} refunded, the gateway ${c.refunded_cents}`);
    }
    for (const p of payments) {
      if (["PAID", "REFUNDED"].includes(p.status) && !charges.some((c) => c.id === p.gateway_charge_id && c.status === "approved")) {
        v.push(`money: payment ${p.id} is ${p.status} without an approved gateway charge`);
      }
    }
    const refunds = await q(`SELECT r.id, r.status, r.idempotency_key, r.amount_cents, r.lease_until FROM refunds r WHERE r.tenant_id = $1`);
    const gatewayRefunds = await q(`SELECT idempotency_key, status, amount_cents FROM sandbox_charges WHERE tenant_id = $1 AND kind = 'refund'`);
    for (const r of refunds) {
      const at = gatewayRefunds.filter((g) => g.idempotency_key === r.idempotency_key);
      if (at.length > 1) v.push(`money: refund ${r.id} refunded ${at.length} times at the gateway`);
      const done = at.some((g) => g.status === "refunded");
      if (r.status === "SUCCEEDED" && !done) v.push(`money: refund ${r.id} SUCCEEDED but the gateway has no refund`);
      if (r.status === "FAILED" && done) v.push(`money: refund ${r.id} FAILED but the gateway refunded it`);
    }

    // --- events ---
    const pairs = await q<{ event_id: string; type: string; url: string; status: string | null }>(
      `SELECT e.id AS event_id, e.type, ep.url, d.status::text AS status
       FROM events e JOIN webhook_endpoints ep ON ep.tenant_id = e.tenant_id AND ep.active AND (cardinality(ep.events) = 0 OR e.type = ANY (ep.events))
       LEFT JOIN webhook_deliveries d ON d.event_id = e.id AND d.endpoint_id = ep.id
       WHERE e.tenant_id = $1`,
    );
    const seen = new Map<string, Set<string>>();
    for (const p of pairs) {
      if (!seen.has(p.url)) seen.set(p.url, delivered(p.url));
      if (p.status === null) v.push(`events: ${p.type} ${p.event_id} never fanned out to ${p.url}`);
      else if (p.status !== "DELIVERED") v.push(`events: ${p.type} ${p.event_id} to ${p.url} is ${p.status}`);
      if (!seen.get(p.url)!.has(p.event_id)) v.push(`events: ${p.type} ${p.event_id} never answered 2xx at ${p.url}`);
    }

    // --- states ---
    const subs = await q(
      `SELECT s.id, s.status::text AS status, s.offer_id, s.current_period_end, s.last_payment_id, s.billing_lease_until, s.next_billing_at, t.clock_at
       FROM subscriptions s JOIN tenants t ON t.id = s.tenant_id WHERE s.tenant_id = $1`,
    );
    const history = await q<{ sub: string; status: string; type: string; id: string }>(
      `SELECT data->>'subscription_id' AS sub, upper(data->>'status') AS status, type, id FROM events
       WHERE tenant_id = $1 AND data ? 'subscription_id' AND data ? 'status' AND data ? 'current_period_end' ORDER BY recorded_at, id`,
    );
    const invoices = await q(`SELECT id, subscription_id, kind::text AS kind, status::text AS status, amount_cents, period_end FROM invoices WHERE tenant_id = $1`);
    for (const s of subs) {
      const seq = history.filter((h) => h.sub === s.id);
      let prev: string | null = null;
      for (const h of seq) {
        if (prev === null && !["ACTIVE", "TRIALING", "PENDING_FIRST_PAYMENT"].includes(h.status)) v.push(`states: ${s.id} born ${h.status} (${h.type})`);
        if (prev !== null && prev !== h.status && !SUBSCRIPTION.transitions[prev as SubscriptionStatus]?.includes(h.status as SubscriptionStatus)) {
          v.push(`states: ${s.id} moved ${prev} -> ${h.status} (${h.type} ${h.id})`);
        }
        prev = h.status;
      }
      if (prev !== s.status) v.push(`states: ${s.id} is ${s.status} but its last event says ${prev}`);
      const own = invoices.filter((i) => i.subscription_id === s.id);
      const open = own.filter((i) => i.status === "OPEN");
      if (s.status === "PAST_DUE" && open.filter((i) => i.kind === "CYCLE").length !== 1) v.push(`states: ${s.id} past_due with ${open.length} open invoices`);
      if (["ACTIVE", "CANCELED"].includes(s.status) && open.length) v.push(`states: ${s.id} ${s.status} with open invoice(s) ${open.map((i) => i.id).join(",")}`);
      if (s.status === "ACTIVE" && !own.some((i) => i.status === "PAID" && +i.period_end === +s.current_period_end)) {
        v.push(`states: ${s.id} active until ${s.current_period_end.toISOString()} without a paid invoice for that period`);
      }
      const last = payments.find((p) => p.id === s.last_payment_id);
      if (s.last_payment_id && (!last || ["PROCESSING", "UNKNOWN"].includes(last.status))) v.push(`states: ${s.id} last payment ${s.last_payment_id} is ${last?.status}`);
      if (s.billing_lease_until && +s.billing_lease_until > Date.now()) v.push(`drained: ${s.id} still claimed by the billing run`);
    }
    for (const i of invoices.filter((i) => i.status === "PAID" && i.amount_cents > 0)) {
      const paid = payments.filter((p) => p.invoice_id === i.id && ["PAID", "REFUNDED", "CHARGEDBACK"].includes(p.status));
      if (paid.length !== 1) v.push(`states: invoice ${i.id} PAID with ${paid.length} paid payments`);
    }

    // --- drained ---
    for (const p of payments) {
      if (["PROCESSING", "UNKNOWN"].includes(p.status)) v.push(`drained: payment ${p.id} still ${p.status}`);
      if (p.refund_in_flight) v.push(`drained: payment ${p.id} still has a refund in flight`);
    }
    for (const r of refunds) {
      if (r.status === "PENDING") v.push(`drained: refund ${r.id} still PENDING`);
      if (r.lease_until) v.push(`drained: refund ${r.id} still leased`);
    }
    const [leased] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND (status = 'PENDING' OR lease_until IS NOT NULL)`);
    if (leased!.n) v.push(`drained: ${leased!.n} webhook deliveries pending or leased`);

    return { violations: v, charges: charges.length, refunds: refunds.length, events: pairs.length, subscriptions: subs.length };
  }
}
