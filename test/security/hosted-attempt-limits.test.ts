// Card testing on the hosted forms: POST /checkout/{offer_id} and POST /pay/{token}
// of a LIVE tenant are limited per client address (10 a minute by default) and per offer or link (60 a
// minute). Over the limit: 429 with Retry-After, a pt-BR page or JSON {error, code: "rate_limited"},
// and nothing charged or written. SANDBOX tenants are not limited. Each test posts from loopback
// addresses of its own (127.0.0.x), so the counters of one test never reach another.
import { describe, expect, it } from "vitest";
import { CARDS, subscribe } from "../helpers/billing.ts";
import { post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, tokenOf } from "../links/pay-helpers.ts";
import { checkoutForm, postFrom } from "./hosted-client.ts";

const PER_ADDRESS = 10;
const PER_OFFER = 60;

/** Every row a checkout or a /pay attempt could write for the tenant, by table. */
async function rowsOf(tenantId: string) {
  const { runtime } = await testService();
  const tables = ["customers", "subscriptions", "invoices", "payments", "orders", "payment_methods", "gateway_events", "events", "checkout_charge_intents", "sandbox_charges"];
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = ((await runtime.db.sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [tenantId]))[0] as { n: number }).n;
  return counts;
}

function expect429Page(r: { status: number; headers: Record<string, unknown>; text: string }) {
  expect(r.status).toBe(429);
  expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
  expect(Number(r.headers["retry-after"])).toBeLessThanOrEqual(60);
  expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
  expect(r.text).toContain('<html lang="pt-BR">');
  expect(r.text).toContain("Muitas tentativas. Aguarde um minuto e tente novamente.");
}

describe("attempt limits on the hosted checkout (LIVE tenants)", () => {
  it("refuses the 11th attempt a minute from one address with a pt-BR 429 page; it charges nothing and writes nothing", async () => {
    const t = await newTenant({ mode: "LIVE" });
    const from = "127.0.0.21";
    for (let i = 0; i < PER_ADDRESS; i++) {
      // Declines and approvals alike are attempts.
      const r = await postFrom(from, `/checkout/${t.monthlyOfferId}`, checkoutForm({}, i % 2 ? CARDS.declined : CARDS.ok));
      expect(r.status, r.text).toBe(i % 2 ? 422 : 201);
    }
    const before = await rowsOf(t.tenantId);
    expect(before.subscriptions).toBe(PER_ADDRESS / 2);
    const refused = await postFrom(from, `/checkout/${t.monthlyOfferId}`, checkoutForm());
    expect429Page(refused);
    const json = await postFrom(from, `/checkout/${t.monthlyOfferId}`, checkoutForm(), { json: true });
    expect(json.status).toBe(429);
    expect(json.json()).toEqual({ error: "muitas tentativas; aguarde um minuto e tente novamente", code: "rate_limited" });
    expect(Number(json.headers["retry-after"])).toBeGreaterThan(0);
    expect(await rowsOf(t.tenantId)).toEqual(before);
    // The address is limited on every LIVE offer, not only this one.
    expect((await postFrom(from, `/checkout/${t.yearlyOfferId}`, checkoutForm())).status).toBe(429);

    // Another address still checks out.
    const other = await postFrom("127.0.0.22", `/checkout/${t.monthlyOfferId}`, checkoutForm(), { json: true });
    expect(other.status, other.text).toBe(201);
    expect(other.json().status).toBe("active");
  });

  it("refuses the 61st attempt a minute on one offer, whatever the address; other offers still sell", async () => {
    const t = await newTenant({ mode: "LIVE" });
    // Ten addresses' worth of cheap refused forms (422: no name) reach the offer's budget.
    for (let a = 0; a < PER_OFFER / PER_ADDRESS; a++) {
      const answers = await Promise.all(
        Array.from({ length: PER_ADDRESS }, () => postFrom(`127.0.0.${31 + a}`, `/checkout/${t.monthlyOfferId}`, { name: "" }, { json: true })),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(PER_ADDRESS).fill(422));
    }
    const before = await rowsOf(t.tenantId);
    const fresh = await postFrom("127.0.0.41", `/checkout/${t.monthlyOfferId}`, checkoutForm(), { json: true });
    expect(fresh.status).toBe(429);
    expect(fresh.json().code).toBe("rate_limited");
    expect(await rowsOf(t.tenantId)).toEqual(before);
    const otherOffer = await postFrom("127.0.0.41", `/checkout/${t.yearlyOfferId}`, checkoutForm(), { json: true });
    expect(otherOffer.status, otherOffer.text).toBe(201);
  });

  it("does not count approved sales against the offer: a launch's 61st sale a minute still goes through", async () => {
    const t = await newTenant({ mode: "LIVE" });
    for (let a = 0; a <= PER_OFFER / PER_ADDRESS; a++) {
      const answers = await Promise.all(
        Array.from({ length: PER_ADDRESS }, () => postFrom(`127.0.0.${51 + a}`, `/checkout/${t.monthlyOfferId}`, checkoutForm(), { json: true })),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(PER_ADDRESS).fill(201));
    }
  });

  it("does not limit a SANDBOX tenant's offer (its test cards are public and it moves no money)", async () => {
    const t = await newTenant();
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 5; i++) statuses.push((await postFrom("127.0.0.42", `/checkout/${t.monthlyOfferId}`, checkoutForm({}, "pix"), { json: true })).status);
    expect(statuses).toEqual(Array(PER_ADDRESS + 5).fill(201));
  });

  it("answers an unknown offer with its 404, not a 429", async () => {
    for (let i = 0; i < PER_ADDRESS + 2; i++) {
      const r = await postFrom("127.0.0.43", `/checkout/offer_01ARZ3NDEKTSV4RRFFQ69G5FAV`, checkoutForm(), { json: true });
      expect(r.status).toBe(404);
    }
  });
});

describe("attempt limits on /pay/{token} (LIVE tenants)", () => {
  async function liveLink() {
    const t = await newTenant({ mode: "LIVE" });
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const link = await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey);
    expect(link.status).toBe(201);
    return { t, token: tokenOf(link.body.url) };
  }

  it("refuses the 11th card attempt a minute from one address (page and JSON) and writes nothing; another address passes", async () => {
    const { t, token } = await liveLink();
    const from = "127.0.0.51";
    for (let i = 0; i < PER_ADDRESS; i++) expect((await postFrom(from, `/pay/${token}`, CARD(CARDS.declined), { json: true })).status).toBe(422);
    const before = await rowsOf(t.tenantId);
    expect429Page(await postFrom(from, `/pay/${token}`, CARD(CARDS.ok)));
    const json = await postFrom(from, `/pay/${token}`, CARD(CARDS.ok), { json: true });
    expect(json.status).toBe(429);
    expect(json.json()).toEqual({ status: null, error: "muitas tentativas; aguarde um minuto e tente novamente", code: "rate_limited" });
    expect(await rowsOf(t.tenantId)).toEqual(before);
    const other = await postFrom("127.0.0.52", `/pay/${token}`, CARD(CARDS.ok), { json: true });
    expect(other.status, other.text).toBe(200);
    expect(other.json().status).toBe("card_updated");
  });

  it("refuses the 61st attempt a minute on one link, whatever the address", async () => {
    const { token } = await liveLink();
    for (let a = 0; a < PER_OFFER / PER_ADDRESS; a++) {
      const answers = await Promise.all(Array.from({ length: PER_ADDRESS }, () => postFrom(`127.0.0.${61 + a}`, `/pay/${token}`, {}, { json: true })));
      expect(answers.map((r) => r.status)).toEqual(Array(PER_ADDRESS).fill(422));
    }
    const fresh = await postFrom("127.0.0.71", `/pay/${token}`, CARD(CARDS.ok), { json: true });
    expect(fresh.status).toBe(429);
  });

  it("does not limit a SANDBOX tenant's link", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 5; i++) statuses.push((await postFrom("127.0.0.72", `/pay/${token}`, CARD(CARDS.declined), { json: true })).status);
    expect(statuses).toEqual(Array(PER_ADDRESS + 5).fill(422));
  });
});
