// Unhandled 500s on the hosted checkout (hosted side): a NUL (%00) or a lone
// surrogate in a form field cannot be stored and was a 500; a one-time offer's price times quantity
// above the 32-bit money columns, a renewal of more cycles than extension_seconds holds and a grant
// of absurd length were 500s too. Each is now a 4xx that names its field.
import { describe, expect, it } from "vitest";
import { CARDS, subscribe } from "../helpers/billing.ts";
import { gql, op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { checkoutForm, sendFrom } from "./hosted-client.ts";

const FROM = "127.0.0.1";

async function rawPost(path: string, body: string, type: string) {
  const { baseUrl } = await testService();
  return sendFrom(FROM, baseUrl, path, body, { "content-type": type, accept: "application/json" });
}

const ONE_TIME = `mutation($t: ID!, $p: ID!, $c: Int!, $g: Int!, $r: Boolean) {
  createOneTimeOffer(tenantId: $t, planId: $p, name: "Avulso", unitPriceCents: $c, currency: "BRL", gateway: "sandbox", grantDays: $g, renewsSubscription: $r) { id } }`;

async function oneTimeOffer(t: TestTenant, unitPriceCents: number, grantDays = 30, renews = false): Promise<string> {
  return (await op(ONE_TIME, { t: t.tenantId, p: t.planId, c: unitPriceCents, g: grantDays, r: renews })).createOneTimeOffer.id;
}

describe("unstorable text in the checkout form", () => {
  it.each(["external_id", "name", "email", "coupon", "ref", "card_holder"])("a NUL in %s (urlencoded) is a 422 naming the field", async (field) => {
    const t = await newTenant();
    const form = new URLSearchParams({ ...checkoutForm(), [field]: field === "email" ? "a\u0000b@example.com" : "Maria\u0000Silva" }).toString();
    expect(form).toContain("%00");
    const r = await rawPost(`/checkout/${t.monthlyOfferId}`, form, "application/x-www-form-urlencoded");
    expect(r.status, r.text).toBe(422);
    expect(r.json()).toEqual({ error: expect.any(String), field });
  });

  it("a lone surrogate in external_id (a JSON \\ud800 escape) is refused (4xx), not a mangled customer", async () => {
    const t = await newTenant();
    const body = JSON.stringify(checkoutForm({ external_id: "EXT" })).replace('"EXT"', '"ab\\ud800cd"');
    const r = await rawPost(`/checkout/${t.monthlyOfferId}`, body, "application/json");
    // The body parser may refuse it first (400 invalid_body); else the form names the field (422).
    expect([400, 422], r.text).toContain(r.status);
    if (r.status === 422) expect(r.json().field).toBe("external_id");
    const { runtime } = await testService();
    expect(await runtime.db.prisma.customer.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });
});

describe("unstorable text in tracking", () => {
  it("a NUL in a tracking value or parameter name is dropped from tracking, and the sale goes through (was a 500)", async () => {
    const t = await newTenant();
    const form = new URLSearchParams({ ...checkoutForm(), utm_source: "news\u0000letter", utm_medium: "email", tp_foo: "x\u0000", ["tp\u0000bar"]: "y" }).toString();
    const r = await rawPost(`/checkout/${t.monthlyOfferId}`, form, "application/x-www-form-urlencoded");
    expect(r.status, r.text).toBe(201);
    const { runtime } = await testService();
    const sub = await runtime.db.prisma.subscription.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(sub.tracking).toMatchObject({ utm_source: null, utm_medium: "email", params: {} });
  });
});

describe("one-time offers beyond 32-bit amounts", () => {
  it("price times quantity above 2^31-1 cents is a 422 on quantity, by card and by Pix; up to the limit it sells", async () => {
    const t = await newTenant();
    const max = await oneTimeOffer(t, 2_147_483_647);
    const big = await oneTimeOffer(t, 30_000_000);
    const buy = (offer: string, quantity: string, card: string | "pix" = CARDS.ok) =>
      rawPost(`/checkout/${offer}`, JSON.stringify(checkoutForm({ quantity }, card)), "application/json");
    for (const card of [CARDS.ok, "pix"]) {
      const over = await buy(max, "2", card);
      expect(over.status, over.text).toBe(422);
      expect(over.json()).toEqual({ error: "quantidade acima do máximo para esta oferta; reduza a quantidade", field: "quantity" });
      expect((await buy(big, "99", card)).status).toBe(422);
    }
    expect((await buy(max, "1", "pix")).status).toBe(201);
    expect((await buy(big, "71", "pix")).status).toBe(201); // 2,130,000,000 cents
    const { runtime } = await testService();
    expect(await runtime.db.prisma.order.count({ where: { tenantId: t.tenantId } })).toBe(2);
    expect(await runtime.db.prisma.gatewayEvent.count({ where: { tenantId: t.tenantId, kind: "charge_card" } })).toBe(0);
  });

  it("an early renewal of more yearly cycles than extension_seconds holds is a 422 on quantity; a few cycles sell", async () => {
    const t = await newTenant();
    const ext = `ext-${Math.random().toString(36).slice(2)}`;
    await subscribe(t.yearlyOfferId, { external_id: ext, email: `${ext}@example.com` });
    const renews = await oneTimeOffer(t, 100, 0, true);
    const buy = (quantity: string) =>
      rawPost(`/checkout/${renews}`, JSON.stringify(checkoutForm({ external_id: ext, email: `${ext}@example.com`, quantity })), "application/json");
    const over = await buy("99");
    expect(over.status, over.text).toBe(422);
    expect(over.json().field).toBe("quantity");
    const ok = await buy("2");
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json().status).toBe("paid");
  });

  it("grantDays beyond 100 years is refused by createOneTimeOffer (invalid_argument); 100 years sells at quantity 99", async () => {
    const t = await newTenant();
    const refused = await gql(ONE_TIME, { t: t.tenantId, p: t.planId, c: 100, g: 2_000_000_000, r: false });
    expect(refused.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(refused.errors?.[0]?.message).toBe("grantDays must be an integer from 0 to 36500");
    const century = await oneTimeOffer(t, 100, 36_500);
    const r = await rawPost(`/checkout/${century}`, JSON.stringify(checkoutForm({ quantity: "99" })), "application/json");
    expect(r.status, r.text).toBe(201);
  });
});
