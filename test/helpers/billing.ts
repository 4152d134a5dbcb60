// Scenario helpers: the hosted checkout (JSON variant), the sandbox clock and /v1 reads.
import { get, op } from "./http.ts";
import { testService } from "./service.ts";
import type { TestTenant } from "./tenant.ts";

export const CARDS = {
  ok: "4242424242424242",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  laterDeclines: "4000000000000341",
  chargeback: "4000000000000259",
  timeout: "4000000000000119",
} as const;

/** A valid CPF (check digits) for forms. */
export const CPF = "52998224725";

export interface CheckoutAnswer {
  status: number;
  body: {
    status: string | null;
    subscription_id: string | null;
    order_id: string | null;
    pix: { copy_paste: string; qr_png_url: string; expires_at: string } | null;
    error: string | null;
    field?: string;
  };
}

export async function checkout(offerId: string, fields: Record<string, string> = {}, opts: { pix?: boolean } = {}): Promise<CheckoutAnswer> {
  const { baseUrl } = await testService();
  const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
  const body: Record<string, string> = {
    external_id: ext,
    name: "Maria Silva",
    email: `${ext}@example.com`,
    phone: "11987654321",
    doc: CPF,
    method: opts.pix ? "pix" : "card",
    ...(opts.pix
      ? {}
      : { card_holder: "MARIA SILVA", card_number: CARDS.ok, card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" }),
    ...fields,
  };
  const res = await fetch(`${baseUrl}/checkout/${offerId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as CheckoutAnswer["body"] };
}

/** Checkout that must succeed; returns the subscription id. */
export async function subscribe(offerId: string, fields: Record<string, string> = {}, opts: { pix?: boolean } = {}) {
  const answer = await checkout(offerId, fields, opts);
  if (answer.status >= 300 || !answer.body.subscription_id) throw new Error(`checkout refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as CheckoutAnswer["body"] & { subscription_id: string };
}

export interface ClockSummary {
  from: string;
  to: string;
  steps: number;
  renewed: number;
  chargeFailed: number;
  pastDue: number;
  suspended: number;
  pixIssued: number;
  canceled: number;
  unknown: number;
  chargebacks: number;
  errors: number;
}

export async function advanceClock(t: TestTenant, to: string): Promise<ClockSummary> {
  const data = await op(
    `mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) {
      from to steps renewed chargeFailed pastDue suspended pixIssued canceled unknown chargebacks errors } }`,
    { t: t.tenantId, to },
  );
  return data.advanceClock as ClockSummary;
}

export async function subscription(t: TestTenant, id: string) {
  const res = await get(`/v1/subscriptions/${id}`, t.readKey);
  if (res.status !== 200) throw new Error(`GET subscription ${res.status} ${res.text}`);
  return res.body;
}

/** The tenant's events, oldest first, optionally of one type. */
export async function events(t: TestTenant, type?: string): Promise<{ id: string; type: string; created_at: string; data: any }[]> {
  const out: any[] = [];
  let after: string | null = null;
  do {
    const qs = new URLSearchParams({ limit: "500", ...(type ? { type } : {}), ...(after ? { after } : {}) });
    const res = await get(`/v1/events?${qs}`, t.readKey);
    if (res.status !== 200) throw new Error(`GET events ${res.status} ${res.text}`);
    out.push(...res.body.results);
    after = res.body.next;
  } while (after);
  return out;
}

/**
 * GET /v1/events keeps 30 days of the tenant's clock, so a long story is read as it happens:
 * the clock moves in hops of at most 20 days and each hop's new events are collected.
 */
export class EventLog {
  readonly seen: { id: string; type: string; created_at: string; data: any }[] = [];
  private last: string | null = null;
  constructor(private readonly t: TestTenant) {}

  async collect(): Promise<void> {
    for (;;) {
      const qs = new URLSearchParams({ limit: "500", ...(this.last ? { after: this.last } : {}) });
      const res = await get(`/v1/events?${qs}`, this.t.readKey);
      if (res.status !== 200) throw new Error(`GET events ${res.status} ${res.text}`);
      this.seen.push(...res.body.results);
      if (res.body.results.length) this.last = res.body.results.at(-1).id;
      if (!res.body.next) return;
    }
  }

  /** advanceClock to `to` in hops of at most 20 days; returns the summed summary. */
  async advance(to: string): Promise<ClockSummary> {
    const total: Record<string, number> = {};
    let result: ClockSummary | undefined;
    for (;;) {
      await this.collect();
      const now = new Date((await subscriptionClock(this.t)).getTime());
      const target = new Date(Math.min(new Date(to).getTime(), now.getTime() + 20 * 86_400_000));
      result = await advanceClock(this.t, target.toISOString());
      for (const [k, v] of Object.entries(result)) if (typeof v === "number") total[k] = (total[k] ?? 0) + v;
      if (target.getTime() >= new Date(to).getTime()) break;
    }
    await this.collect();
    return { ...result!, ...total } as ClockSummary;
  }

  of(subscriptionId: string): string[] {
    return this.seen.filter((e) => e.data?.subscription_id === subscriptionId).map((e) => `${e.type}:${e.data.status}`);
  }
}

/** The tenant's clock, read back from the last advanceClock (from = to of a zero move). */
async function subscriptionClock(t: TestTenant): Promise<Date> {
  const data = await op(`query($t: ID!) { tenant(id: $t) { clockAt } }`, { t: t.tenantId }).catch(() => null);
  if (data?.tenant?.clockAt) return new Date(data.tenant.clockAt);
  throw new Error("tenant clock unreadable");
}

export async function gatewayEvents(t: TestTenant, subscriptionId: string): Promise<any[]> {
  return (await get(`/v1/subscriptions/${subscriptionId}/gateway-events`, t.readKey)).body.results;
}

export async function makeOffer(
  t: TestTenant,
  opts: { interval?: "MONTH" | "YEAR"; priceCents?: number; trialDays?: number; methods?: string[] } = {},
): Promise<string> {
  const data = await op(
    `mutation($t: ID!, $p: ID!, $i: BillingInterval!, $c: Int!, $d: Int!, $m: [CollectionMethod!]!) {
      createOffer(tenantId: $t, planId: $p, name: "Pro", interval: $i, priceCents: $c, currency: "brl", gateway: "sandbox",
                  collectionMethods: $m, trialDays: $d) { id } }`,
    { t: t.tenantId, p: t.planId, i: opts.interval ?? "MONTH", c: opts.priceCents ?? 4990, d: opts.trialDays ?? 0, m: opts.methods ?? ["CARD_AUTO", "PIX_MANUAL"] },
  );
  return data.createOffer.id;
}

export async function payPix(copyPaste: string) {
  return (await op(`mutation($c: String!) { simulatePixPayment(copyPaste: $c) { id status } }`, { c: copyPaste })).simulatePixPayment;
}
