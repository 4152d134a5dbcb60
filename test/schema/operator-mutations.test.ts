import { describe, expect, it } from "vitest";
import { gql, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

describe("operator mutations", () => {
  it("creates webhook endpoints with a strong secret and rotates it", async () => {
    const t = await newTenant();
    const { createWebhookEndpoint: ep } = await op(
      `mutation($t: ID!) { createWebhookEndpoint(tenantId: $t, url: "http://127.0.0.1:9/hook", events: ["invoice.paid"]) { id secret events } }`,
      { t: t.tenantId },
    );
    expect(Buffer.from(ep.secret.replace(/^whsec_/, ""), "base64").length).toBeGreaterThanOrEqual(32);
    expect(ep.events).toEqual(["invoice.paid"]);
    const { rotateWebhookSecret } = await op(`mutation($e: ID!) { rotateWebhookSecret(endpointId: $e) { secret previousSecretExpiresAt } }`, { e: ep.id });
    expect(rotateWebhookSecret.secret).not.toBe(ep.secret);
    const hours = (Date.parse(rotateWebhookSecret.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it.each([
    ["ftp://example.com/x", "SANDBOX"],
    ["https://user:pw@example.com/x", "SANDBOX"],
    ["not a url", "SANDBOX"],
    ["http://127.0.0.1/hook", "LIVE"],
    ["http://10.1.2.3/hook", "LIVE"],
    ["http://[::1]/hook", "LIVE"],
    ["http://localhost:8080/hook", "LIVE"],
  ])("refuses endpoint url %s for a %s tenant", async (url, mode) => {
    const t = await newTenant({ mode: mode as "LIVE" | "SANDBOX" });
    const r = await gql(`mutation($t: ID!, $u: String!) { createWebhookEndpoint(tenantId: $t, url: $u) { id } }`, { t: t.tenantId, u: url });
    expect(r.errors?.[0]?.extensions?.code).toBe("invalid_argument");
  });

  it("validates offers, coupons and gateway accounts", async () => {
    const t = await newTenant();
    const bad = await gql(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "X", percentOff: 10, amountOffCents: 100) { id } }`, { t: t.tenantId });
    expect(bad.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    const { createCoupon } = await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "OFF20", percentOff: 20, cycles: 2) { code cycles } }`, { t: t.tenantId });
    expect(createCoupon).toEqual({ code: "OFF20", cycles: 2 });
    const { createGatewayAccount } = await op(
      `mutation($t: ID!) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "no-sum", capabilities: {sumsPartialRefunds: false, minimumChargeCents: 500}) { id capabilities } }`,
      { t: t.tenantId },
    );
    expect(createGatewayAccount.capabilities).toMatchObject({ sumsPartialRefunds: false, minimumChargeCents: 500, supportsPix: true });
    const { createOneTimeOffer } = await op(
      `mutation($t: ID!, $p: ID!, $g: String!) { createOneTimeOffer(tenantId: $t, planId: $p, name: "Pack", unitPriceCents: 990, currency: "brl", gateway: $g, grantDays: 30, renewsSubscription: false) { kind priceCents grantDays gatewayAccountId } }`,
      { t: t.tenantId, p: t.planId, g: createGatewayAccount.id },
    );
    expect(createOneTimeOffer).toEqual({ kind: "ONE_TIME", priceCents: 990, grantDays: 30, gatewayAccountId: createGatewayAccount.id });
    const float = await gql(`mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "x", interval: MONTH, priceCents: 10.5, currency: "brl", gateway: "sandbox", collectionMethods: [CARD_AUTO]) { id } }`, {
      t: t.tenantId,
      p: t.planId,
    });
    expect(float.errors?.length).toBeGreaterThan(0);
    const foreign = await newTenant();
    const cross = await gql(`mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "x", interval: MONTH, priceCents: 100, currency: "brl", gateway: "sandbox", collectionMethods: [CARD_AUTO]) { id } }`, {
      t: foreign.tenantId,
      p: t.planId,
    });
    expect(cross.errors?.[0]?.extensions?.code).toBe("not_found");
  });
});
