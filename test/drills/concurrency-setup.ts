// The drill's starting line: one tenant (rate limits lifted, so every answer is the service's own
// decision), offers to move between, and subscriptions in the states the race starts from.
import { advanceClock, CARDS, makeOffer, subscribe, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, payJson, plusDays, tokenOf } from "../links/pay-helpers.ts";

export interface DrillSubscription {
  name: string;
  id: string;
  /** Cancel-now and revoking refunds only aim at mortal ones, so the rest stay alive for the other routes. */
  mortal: boolean;
  /** Payments known to the clients (refund targets), with their amounts. */
  payments: Map<string, number>;
}

export interface DrillWorld {
  t: TestTenant;
  clock: string;
  offers: { base: string; max: string; lite: string; yearly: string };
  subs: DrillSubscription[];
}

const pause = (tenantId: string, paused: boolean) =>
  op(`mutation($t: ID!, $p: Boolean!) { setRenewalsPaused(tenantId: $t, paused: $p) { id } }`, { t: tenantId, p: paused });

export async function tenantClock(t: TestTenant): Promise<string> {
  return (await op(`query($t: ID!) { tenant(id: $t) { clockAt } }`, { t: t.tenantId })).tenant.clockAt;
}

export async function buildWorld(): Promise<DrillWorld> {
  const t = await newTenant();
  await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 100000, writePerSecond: 100000) { id } }`, { t: t.tenantId });
  const offers = {
    base: t.monthlyOfferId,
    max: await makeOffer(t, { priceCents: 9990, methods: ["CARD_AUTO"] }),
    lite: await makeOffer(t, { priceCents: 1990, methods: ["CARD_AUTO"] }),
    yearly: t.yearlyOfferId,
  };
  const spec = [
    { name: "active-1", card: CARDS.ok, mortal: false },
    { name: "active-2", card: CARDS.ok, mortal: true },
    { name: "past-due-fixed", card: CARDS.laterDeclines, mortal: true },
    { name: "past-due-declining", card: CARDS.laterDeclines, mortal: false },
    { name: "cancel-scheduled", card: CARDS.ok, mortal: true },
    { name: "change-pending", card: CARDS.ok, mortal: false },
    { name: "renewal-due", card: CARDS.ok, mortal: false },
    { name: "renewal-due-2", card: CARDS.ok, mortal: true },
    { name: "refunded", card: CARDS.ok, mortal: true },
  ];
  const subs: DrillSubscription[] = [];
  for (const s of spec) {
    const { subscription_id } = await subscribe(offers.base, { card_number: s.card });
    subs.push({ name: s.name, id: subscription_id, mortal: s.mortal, payments: new Map() });
  }
  const by = (name: string) => subs.find((s) => s.name === name)!;
  const t0 = await tenantClock(t);
  // The two past_due ones: their renewal is moved to tomorrow and refused there (retry at D+1).
  for (const name of ["past-due-fixed", "past-due-declining"]) await expectOk(post(`/v1/subscriptions/${by(name).id}/reschedule`, t.writeKey, { next_billing_at: plusDays(t0, 1) }));
  await advanceClock(t, plusDays(t0, 1.05));
  // The renewal-due one falls due with their retry; renewals are paused meanwhile so charge-now finds the work.
  for (const name of ["renewal-due", "renewal-due-2"]) await expectOk(post(`/v1/subscriptions/${by(name).id}/reschedule`, t.writeKey, { next_billing_at: plusDays(t0, 2) }));
  await pause(t.tenantId, true);
  await advanceClock(t, plusDays(t0, 2.05));
  await pause(t.tenantId, false);
  // past-due-fixed gets a good card (payment-method link): its retry by charge-now will pay.
  const link = await post(`/v1/subscriptions/${by("past-due-fixed").id}/payment-method-link`, t.writeKey);
  const saved = await payJson(tokenOf(link.body.url), CARD(CARDS.ok));
  if (saved.status !== 200) throw new Error(`card swap refused: ${JSON.stringify(saved.body)}`);
  await expectOk(post(`/v1/subscriptions/${by("cancel-scheduled").id}/cancel`, t.writeKey, { at_period_end: true, reason: "drill" }));
  await expectOk(post(`/v1/subscriptions/${by("change-pending").id}/change-plan`, t.writeKey, { offer_id: offers.lite }));
  for (const s of subs) {
    const sub = await subscription(t, s.id);
    if (sub.last_payment) s.payments.set(sub.last_payment.payment_id, sub.last_payment.amount_cents);
  }
  const expected: Record<string, string> = { "past-due-fixed": "past_due", "past-due-declining": "past_due" };
  for (const s of subs) {
    const status = (await subscription(t, s.id)).status;
    if (status !== (expected[s.name] ?? "active")) throw new Error(`${s.name} starts ${status}`);
  }
  return { t, clock: await tenantClock(t), offers, subs };
}

async function expectOk(p: Promise<{ status: number; text: string }>) {
  const res = await p;
  if (res.status >= 300) throw new Error(`setup call refused: ${res.status} ${res.text}`);
}
