// GET /v1/renewal-campaigns/{id}/link and /links, and the operator's createRenewalCampaign /
// setRenewalCampaignActive: every status and message of the contract and of our decisions.
import { describe, expect, it } from "vitest";
import { advanceClock, makeOffer, subscribe } from "../helpers/billing.ts";
import { gql, op } from "../helpers/http.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { campaignLink, campaignLinks, createCampaign, setCampaignActive, tryCreateCampaign } from "../campaigns/campaign-helpers.ts";

const T0 = "2027-03-01T12:00:00.000Z";

async function customer(t: TestTenant, externalId: string, offerId = t.monthlyOfferId) {
  const sub = await subscribe(offerId, { external_id: externalId, email: `${externalId}-${Math.random().toString(36).slice(2, 8)}@example.com` });
  return sub.subscription_id;
}

async function errorOf(p: Promise<{ errors?: { extensions?: Record<string, any> }[] }>) {
  const r = await p;
  return r.errors?.[0]?.extensions?.body as { error: string; code?: string } | undefined;
}

describe("createRenewalCampaign (operator)", () => {
  it("creates a campaign with its audience and deactivates it", async () => {
    const t = await newTenant();
    const r = await tryCreateCampaign(t, { priceCents: 2500, bonusCycles: 2, bonusUnit: "Day", startsAt: T0, audience: { statuses: ["ACTIVE"], planIds: [t.planId] } });
    expect(r.errors).toBeUndefined();
    expect(r.data.createRenewalCampaign).toMatchObject({
      offerId: t.monthlyOfferId,
      priceCents: 2500,
      bonusCycles: 2,
      bonusUnit: "day",
      startsAt: T0,
      audience: { statuses: ["ACTIVE"], planIds: [t.planId], customerExternalIds: [] },
      active: true,
    });
    expect(await setCampaignActive(r.data.createRenewalCampaign.id, false)).toMatchObject({ active: false });
  });

  it("refuses invalid prices, bonuses, units, statuses, offers and plans", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const oneTime = (
      await op(
        `mutation($t: ID!, $p: ID!) { createOneTimeOffer(tenantId: $t, planId: $p, name: "Pack", unitPriceCents: 900, currency: "brl", gateway: "sandbox", grantDays: 30) { id } }`,
        { t: t.tenantId, p: t.planId },
      )
    ).createOneTimeOffer.id;
    const cases: [Parameters<typeof tryCreateCampaign>[1], string, string][] = [
      [{ priceCents: 0 }, "invalid_argument", "priceCents must be an integer of at least 1"],
      [{ bonusCycles: -1 }, "invalid_argument", "bonusCycles must be an integer from 0 to 1000"],
      [{ bonusUnit: "week" }, "invalid_argument", "bonusUnit must be day, month or year"],
      [{ audience: { statuses: ["CANCELED"] } }, "invalid_argument", "audience.statuses may hold trialing, active, past_due or suspended (no period to extend: canceled)"],
      [{ offerId: oneTime }, "invalid_argument", "a renewal campaign needs a recurring offer"],
      [{ offerId: other.monthlyOfferId }, "not_found", "offer not found"],
      [{ offerId: "offer_nope" }, "not_found", "offer not found"],
      [{ audience: { planIds: [other.planId] } }, "invalid_argument", "audience.planIds names a plan that is not of this tenant"],
    ];
    for (const [input, code, error] of cases) expect(await errorOf(tryCreateCampaign(t, input)), JSON.stringify(input)).toEqual({ error, code });
    // A status outside the subscription status set is refused by the schema itself.
    expect((await tryCreateCampaign(t, { audience: { statuses: ["LAPSED"] } })).errors?.length).toBe(1);
  });

  it("is operator only", async () => {
    const t = await newTenant();
    const denied = await gql(`mutation($t: ID!, $o: ID!) { createRenewalCampaign(tenantId: $t, offerId: $o, priceCents: 1, bonusCycles: 0, bonusUnit: "day") { id } }`, { t: t.tenantId, o: t.monthlyOfferId }, t.writeKey);
    expect(denied.errors?.[0]?.extensions?.status).toBe(403);
  });
});

describe("GET /v1/renewal-campaigns/{id}/link", () => {
  it("gets or creates the customer's link: 200 link object, the same token on every call, concurrent calls included", async () => {
    const t = await newTenant();
    await customer(t, "alice");
    const id = await createCampaign(t, { priceCents: 3000, bonusCycles: 1, bonusUnit: "month" });
    const first = await campaignLink(t, id, "alice");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      token: expect.stringMatching(/^pl_[0-9A-Za-z]{40}$/),
      url: expect.stringMatching(/\/pay\/pl_[0-9A-Za-z]{40}$/),
      price_cents: 3000,
      bonus_cycles: 1,
      bonus_unit: "month",
      status: "open",
      starts_at: null,
      offer_id: t.monthlyOfferId,
      plan_id: t.planId,
      product_id: t.productId,
    });
    expect(first.body.url.endsWith(`/pay/${first.body.token}`)).toBe(true);
    expect((await campaignLink(t, id, "alice")).body).toEqual(first.body);

    await customer(t, "bob");
    const racing = await Promise.all([1, 2, 3, 4].map(() => campaignLink(t, id, "bob")));
    for (const r of racing) expect(r.status).toBe(200);
    expect(new Set(racing.map((r) => r.body.token)).size).toBe(1);
    expect(racing[0]!.body.token).not.toBe(first.body.token);
    const page = await campaignLinks(t, id);
    expect(page.body.results.map((e: any) => e.external_id)).toEqual(["alice", "bob"]);
  });

  it("counts as a write route for the request limits (it may create a link)", async () => {
    const t = await newTenant();
    await customer(t, "alice");
    const id = await createCampaign(t);
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, writePerSecond: 1) { writeRateLimit } }`, { t: t.tenantId });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await campaignLink(t, id, "alice")).status);
    // 1/s with a 2x burst: two pass in the window, the rest are refused; the read list is not counted there.
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await campaignLinks(t, id, "", t.writeKey)).status).toBe(200);
  });

  it("400 without external_id; 403 for a read key and for a read-only account", async () => {
    const t = await newTenant();
    await customer(t, "alice");
    const id = await createCampaign(t);
    for (const missing of [await campaignLink(t, id, null), await campaignLink(t, id, "")]) {
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: "external_id is required", code: "missing_customer_key" });
    }
    const read = await campaignLink(t, id, "alice", t.readKey);
    expect(read.status).toBe(403);
    expect(read.body.code).toBe("insufficient_scope");
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: t.tenantId });
    const locked = await campaignLink(t, id, "alice");
    expect(locked.status).toBe(403);
    expect(locked.body).toEqual({ error: "the account is in read-only mode", code: "account_locked" });
    expect((await campaignLinks(t, id)).body.results).toEqual([]);
  });

  it("404 for an unknown, malformed or foreign campaign, an inactive one and one not started yet", async () => {
    const t = await newTenant();
    const other = await newTenant();
    await advanceClock(t, T0);
    await customer(t, "alice");
    const foreign = await createCampaign(other);
    const notFound = { error: "campaign not found", code: "not_found" };
    for (const id of ["cmp_01JABCDEFGHJKMNPQRSTVWXYZ0", "nope", foreign]) {
      const r = await campaignLink(t, id, "alice");
      expect(r.status, id).toBe(404);
      expect(r.body).toEqual(notFound);
    }
    const inactive = await createCampaign(t);
    await setCampaignActive(inactive, false);
    expect((await campaignLink(t, inactive, "alice")).body).toEqual(notFound);
    await setCampaignActive(inactive, true);
    expect((await campaignLink(t, inactive, "alice")).status).toBe(200);

    // starts_at is read on the tenant clock: 404 before it, 200 from it on.
    const later = await createCampaign(t, { startsAt: "2027-03-10T00:00:00.000Z" });
    expect((await campaignLink(t, later, "alice")).body).toEqual(notFound);
    await advanceClock(t, "2027-03-10T00:00:00.000Z");
    const started = await campaignLink(t, later, "alice");
    expect(started.status).toBe(200);
    expect(started.body.starts_at).toBe("2027-03-10T00:00:00.000Z");
  });

  it("404 for an unknown customer and for customers outside the audience (statuses AND plans AND named customers)", async () => {
    const t = await newTenant();
    await customer(t, "alice");
    const pixSub = await subscribe(t.monthlyOfferId, { external_id: "pix-pending", email: `pp-${Math.random().toString(36).slice(2, 8)}@example.com` }, { pix: true });
    expect(pixSub.status).toBe("pending_first_payment");
    const { createPlan } = await op(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Basic", entitlements: {}) { id } }`, { t: t.tenantId, p: t.productId });
    const basicOffer = await op(
      `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Basic", interval: MONTH, priceCents: 1990, currency: "brl", gateway: "sandbox", collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
      { t: t.tenantId, p: createPlan.id },
    );
    await customer(t, "carol", basicOffer.createOffer.id);

    const outside = { error: "customer is not in the campaign audience", code: "not_found" };
    const unknown = await campaignLink(t, await createCampaign(t), "nobody");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "customer not found", code: "not_found" });

    // No filter: any customer with a subscription to extend; never a pending_first_payment one.
    const everyone = await createCampaign(t);
    expect((await campaignLink(t, everyone, "alice")).status).toBe(200);
    expect((await campaignLink(t, everyone, "carol")).status).toBe(200);
    expect((await campaignLink(t, everyone, "pix-pending")).body).toEqual(outside);

    const byPlan = await createCampaign(t, { audience: { planIds: [t.planId] } });
    expect((await campaignLink(t, byPlan, "alice")).status).toBe(200);
    expect((await campaignLink(t, byPlan, "carol")).body).toEqual(outside);

    const byStatus = await createCampaign(t, { audience: { statuses: ["PAST_DUE", "SUSPENDED"] } });
    expect((await campaignLink(t, byStatus, "alice")).body).toEqual(outside);

    const named = await createCampaign(t, { audience: { customerExternalIds: ["carol", "alice"], planIds: [createPlan.id] } });
    expect((await campaignLink(t, named, "carol")).status).toBe(200);
    // Named, but the plan filter still applies (all filters must hold).
    expect((await campaignLink(t, named, "alice")).body).toEqual(outside);
    const onlyCarol = await createCampaign(t, { audience: { customerExternalIds: ["carol"] } });
    expect((await campaignLink(t, onlyCarol, "alice")).body).toEqual(outside);
    expect((await campaignLinks(t, onlyCarol)).body.results).toEqual([]);
  });
});

describe("GET /v1/renewal-campaigns/{id}/links", () => {
  it("pages the generated links by keyset (any scope): link object plus external_id and created_at", async () => {
    const t = await newTenant();
    const id = await createCampaign(t, { bonusCycles: 0, bonusUnit: "year" });
    const names = ["c1", "c2", "c3"];
    const tokens: string[] = [];
    for (const n of names) {
      await customer(t, n);
      tokens.push((await campaignLink(t, id, n)).body.token);
    }
    const all = await campaignLinks(t, id, "", t.writeKey);
    expect(all.status).toBe(200);
    expect(all.body.next).toBeNull();
    expect(all.body.results).toHaveLength(3);
    expect(all.body.results[0]).toEqual({
      ...(await campaignLink(t, id, "c1")).body,
      external_id: "c1",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await campaignLinks(t, id, `?limit=2${after ? `&after=${after}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.results.map((e: any) => e.token));
      after = res.body.next;
      pages++;
    } while (after);
    expect(pages).toBe(2);
    expect(seen).toEqual(tokens);
  });

  it("400 for a bad cursor or limit; 404 for an unknown or foreign campaign", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const id = await createCampaign(t);
    for (const qs of ["?after=nope", "?after=pay_01JABCDEFGHJKMNPQRSTVWXYZ0"]) {
      const r = await campaignLinks(t, id, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body).toEqual({ error: "after is not a valid cursor", code: "invalid_cursor" });
    }
    for (const qs of ["?limit=0", "?limit=501", "?limit=x"]) {
      const r = await campaignLinks(t, id, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.code).toBe("invalid_limit");
    }
    for (const cid of ["cmp_01JABCDEFGHJKMNPQRSTVWXYZ0", await createCampaign(other)]) {
      const r = await campaignLinks(t, cid);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "campaign not found", code: "not_found" });
    }
  });
});
