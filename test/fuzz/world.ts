// Two SANDBOX tenants with real data made through the public surfaces (hosted checkout, /v1 actions,
// operator GraphQL), and for each the identifiers the other tenant must never see.
import { CARDS, checkout, makeOffer, payPix, subscribe } from "../helpers/billing.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { op, post } from "../helpers/http.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { oneTimeOffer } from "../orders/order-helpers.ts";
import { createProgram } from "../referrals/referral-helpers.ts";
import { createCampaign } from "../campaigns/campaign-helpers.ts";

export type Label = "A" | "B";

/** The kinds of value a request slot can reference. */
export type RefKind = "subscription" | "payment" | "order" | "campaign" | "offer" | "customer" | "email" | "cursor";

export interface TenantData {
  label: Label;
  t: TestTenant;
  revokedKey: string;
  /** Values the fuzzer picks from, by kind (refreshed from the database). */
  pools: Record<RefKind, string[]>;
  /** Every identifier of this tenant that may appear in a body: ids, external ids, e-mails. */
  idents: Set<string>;
  cheaperOfferId: string;
  trialOfferId: string;
  oneTimeOfferId: string;
  round: number;
}

export interface World {
  A: TenantData;
  B: TenantData;
  adminToken: string;
  /** Re-reads pools and identifier sets from the database (the fuzzer's writes change them). */
  refresh(): Promise<void>;
  /** Fresh records (checkouts, a canceled subscription, orders...) so valid ids keep hitting live paths. */
  replenish(): Promise<void>;
}

const rand = () => Math.random().toString(36).slice(2, 8);

async function seedTenant(label: Label): Promise<TenantData> {
  const t = await newTenant({ entitlements: { seats: 5, reports: true } });
  // The fuzzer sends far more than the default 100 reads/s per key; 429 is not what it is after.
  await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 100000, writePerSecond: 100000) { id } }`, { t: t.tenantId });
  const { createApiKey } = await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: WRITE) { id key } }`, { t: t.tenantId });
  await op(`mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: createApiKey.id });
  const data: TenantData = {
    label,
    t,
    revokedKey: createApiKey.key,
    pools: { subscription: [], payment: [], order: [], campaign: [], offer: [], customer: [], email: [], cursor: [] },
    idents: new Set(),
    cheaperOfferId: await makeOffer(t, { priceCents: 2990 }),
    trialOfferId: await makeOffer(t, { trialDays: 14 }),
    oneTimeOfferId: await oneTimeOffer(t, { unitPriceCents: 1500, grantDays: 30 }),
    round: 0,
  };
  // Only A has a referral program, so GET /v1/referrals/link answers both shapes.
  if (label === "A") await createProgram(t, { value: 10, cycles: 1 }, 1);
  await createCampaign(t, { priceCents: 3000 });
  return data;
}

/** One round of records for a tenant, every one made through checkout or /v1. */
async function addRecords(d: TenantData): Promise<void> {
  const r = ++d.round;
  let n = 0;
  const who = () => {
    const ext = `fz${d.label}-${r}-${++n}-${rand()}`;
    return { external_id: ext, email: `${ext.toLowerCase()}@example.com` };
  };
  const { t } = d;
  await subscribe(t.monthlyOfferId, who());
  await subscribe(t.monthlyOfferId, who());
  await subscribe(t.yearlyOfferId, who());
  await subscribe(d.trialOfferId, who());
  await checkout(t.monthlyOfferId, who(), { pix: true }); // pending_first_payment with a payable QR
  const paidPix = await subscribe(t.monthlyOfferId, who(), { pix: true });
  if (paidPix.pix) await payPix(paidPix.pix.copy_paste);
  const canceled = await subscribe(t.monthlyOfferId, who());
  await post(`/v1/subscriptions/${canceled.subscription_id}/cancel`, t.writeKey, { reason: "fuzz seed" });
  const scheduled = await subscribe(t.monthlyOfferId, who());
  await post(`/v1/subscriptions/${scheduled.subscription_id}/cancel`, t.writeKey, { at_period_end: true });
  const downgrading = await subscribe(t.monthlyOfferId, who());
  await post(`/v1/subscriptions/${downgrading.subscription_id}/change-plan`, t.writeKey, { offer_id: d.cheaperOfferId });
  await subscribe(t.monthlyOfferId, { ...who(), card_number: CARDS.laterDeclines });
  await checkout(d.oneTimeOfferId, { ...who(), quantity: "2" }); // a paid order
  await checkout(d.oneTimeOfferId, who(), { pix: true }); // a pending Pix order
}

async function refreshTenant(d: TenantData): Promise<void> {
  const prisma = (await testService()).runtime.db.prisma;
  const where = { where: { tenantId: d.t.tenantId } };
  const id = { select: { id: true }, ...where };
  const [customers, subscriptions, payments, invoices, orders, offers, plans, products, events, gatewayEvents, campaigns, referrals] = await Promise.all([
    prisma.customer.findMany({ select: { id: true, externalId: true, email: true }, ...where }),
    prisma.subscription.findMany(id),
    prisma.payment.findMany(id),
    prisma.invoice.findMany(id),
    prisma.order.findMany(id),
    prisma.offer.findMany(id),
    prisma.plan.findMany(id),
    prisma.product.findMany(id),
    prisma.event.findMany(id),
    prisma.gatewayEvent.findMany(id),
    prisma.renewalCampaign.findMany(id),
    prisma.referral.findMany(id),
  ]);
  const ids = (rows: { id: string }[]) => rows.map((x) => x.id);
  d.pools = {
    subscription: ids(subscriptions),
    payment: ids(payments),
    order: ids(orders),
    campaign: ids(campaigns),
    offer: ids(offers),
    customer: customers.map((c) => c.externalId),
    email: customers.map((c) => c.email),
    cursor: [...ids(subscriptions).slice(-5), ...ids(payments).slice(-5), ...ids(events).slice(-5), ...ids(campaigns)],
  };
  // Identifiers only grow: an e-mail a customer had stays this tenant's.
  for (const v of [
    d.t.tenantId,
    ...customers.flatMap((c) => [c.id, c.externalId, c.email]),
    ...[subscriptions, payments, invoices, orders, offers, plans, products, events, gatewayEvents, campaigns, referrals].flatMap(ids),
  ]) {
    d.idents.add(v);
  }
}

export async function seedWorld(): Promise<World> {
  await testService();
  const A = await seedTenant("A");
  const B = await seedTenant("B");
  const world: World = {
    A,
    B,
    adminToken: ADMIN_TOKEN,
    async refresh() {
      await refreshTenant(A);
      await refreshTenant(B);
    },
    async replenish() {
      await addRecords(A);
      await addRecords(B);
      await world.refresh();
    },
  };
  await world.replenish();
  return world;
}
