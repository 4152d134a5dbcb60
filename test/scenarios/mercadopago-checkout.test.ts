// Mercado Pago at the hosted checkout and when an account is connected, what only Mercado Pago shows (the
// stories every provider walks, checkout and renewal included, are the contract suite's:
// test/gateways/contract/): a posted card number or a malformed token never reaches Mercado Pago, a refused
// card carries Mercado Pago's reason, and createGatewayAccount checks the access token with Mercado Pago.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { get, gql } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { ACCESS_TOKEN, mercadopagoCheckout, mercadopagoOffer, PUBLIC_KEY, startMercadoPagoTestbed } from "../helpers/mercadopago.ts";

let fake: FakeMercadoPago;
beforeAll(async () => void ({ fake } = await startMercadoPagoTestbed()));
afterAll(() => fake?.close());

describe("Mercado Pago: checkout and account", () => {
  it("a posted card number is refused before anything reaches Mercado Pago; a card the issuer refuses at checkout writes nothing", async () => {
    const s = await mercadopagoOffer(fake);
    const before = fake.requests.length;
    const posted = await mercadopagoCheckout(s, { cardToken: fake.browserToken() }, { card_number: "5031433215406351", card_cvc: "123" });
    expect(posted).toMatchObject({ status: 422, body: { field: "card_number" } });
    expect(fake.requests.length).toBe(before);
    const bad = await mercadopagoCheckout(s, { cardToken: "not a token" });
    expect(bad).toMatchObject({ status: 422, body: { field: "mercadopago_token" } });

    const refused = await mercadopagoCheckout(s, { cardToken: fake.browserToken({ holder: "FUND" }) });
    expect(refused).toMatchObject({ status: 422, body: { field: "card_number", error: expect.stringContaining("pagamento não aprovado") } });
    const subs = await get(`/v1/subscriptions?limit=10`, s.t.readKey);
    expect(subs.body.results).toEqual([]);
  });

  it("connecting an account: a wrong access token or mixed-mode keys are refused at createGatewayAccount with Mercado Pago's reason, never the token; good ones get Mercado Pago's capabilities", async () => {
    const t = await newTenant();
    const CREATE = `mutation($t: ID!, $c: JSON, $u: String) { createGatewayAccount(tenantId: $t, provider: MERCADOPAGO, name: "mp", credentials: $c, apiBaseUrl: $u) { id capabilities credentialHints } }`;
    const wrong = `TEST-${"9".repeat(16)}-112233-${"ab".repeat(16)}-1`;
    const refused = await gql(CREATE, { t: t.tenantId, c: { accessToken: wrong }, u: fake.url });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "gateway_credentials_invalid" });
    expect(refused.errors?.[0]?.message).toMatch(/does not recognize the access token/);
    expect(JSON.stringify(refused)).not.toContain(wrong.slice(5));
    const mixed = await gql(CREATE, { t: t.tenantId, c: { accessToken: ACCESS_TOKEN, publicKey: `APP_USR-${PUBLIC_KEY.slice(5)}` }, u: fake.url });
    expect(mixed.errors?.[0]?.message).toMatch(/different modes/);
    const ok = await gql(CREATE, { t: t.tenantId, c: { accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY }, u: fake.url });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.createGatewayAccount.capabilities).toMatchObject({ capturesCardOnlyOnPaymentPage: true, sumsPartialRefunds: true, minimumChargeCents: 100, supportsPix: true });
    expect(JSON.stringify(ok)).not.toContain(ACCESS_TOKEN);
  });
});
