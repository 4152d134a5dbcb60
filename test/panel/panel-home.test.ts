// The panel's first page: what needs attention (failing webhook endpoints, gateway credentials the
// provider refused, API keys never used) and the last events, for the signed-in member's tenant only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { checkout, subscribe } from "../helpers/billing.ts";
import { op } from "../helpers/http.ts";
import { newMember, signIn } from "../helpers/panel.ts";
import { PUBLISHABLE_KEY, SECRET_KEY, stripeOffer, WEBHOOK_SECRET } from "../helpers/stripe.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint, receiversPerTest } from "../helpers/webhook-receiver.ts";

const receiver = receiversPerTest();
let stripe: FakeStripe;
const revoked: string[] = [];
beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, revokedKeys: revoked });
});
afterAll(async () => {
  await stripe?.close();
});

describe("panel home", { timeout: 120_000 }, () => {
  it("lists failing endpoints, refused gateway credentials and keys never used, then the last events; clears a fixed gateway", async () => {
    const s = await stripeOffer(stripe);
    const t = s.t;
    const owner = await newMember(t.tenantId, "OWNER");
    const b = await signIn(owner.email, owner.password);

    // A key made and never used.
    await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ, name: "Chave <b>esquecida</b>") { key } }`, { t: t.tenantId });
    // An endpoint that answers 503 to every delivery.
    const rcv = await receiver();
    rcv.answer = () => ({ status: 503 });
    const endpoint = await addEndpoint(t, rcv.url);
    await subscribe(t.monthlyOfferId);
    await rcv.waitFor((rs) => rs.length >= 2);
    // The Stripe key rolled at the provider: the next call answers 401.
    revoked.push(SECRET_KEY);
    try {
      expect((await checkout(s.offerId, {}, { pix: true })).status).toBeGreaterThanOrEqual(400);
    } finally {
      revoked.splice(0);
    }

    const home = (await b.get("/panel/")).html;
    expect(home).toContain("Webhooks com falhas");
    expect(home).toContain(`href="/panel/webhooks/${endpoint.id}"`);
    expect(home).toMatch(/[2-9] entregas com falha nos últimos 7 dias/);
    expect(home).toContain("Gateways com credenciais recusadas");
    expect(home).toContain(`href="/panel/gateways/${s.accountId}"`);
    expect(home).toContain("Stripe recusou as credenciais");
    expect(home).toContain("Chaves de API nunca usadas");
    expect(home).toContain("Chave &lt;b>esquecida&lt;/b>");
    expect(home).not.toContain("<b>esquecida");
    expect(home).toContain("Últimos eventos");
    expect(home).toContain("<code>invoice.paid</code>");
    expect(home).toContain("<code>subscription.activated</code>");

    // New credentials clear the refusal.
    await op(`mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { id credentialsRefusedAt } }`, {
      id: s.accountId,
      c: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, publishableKey: PUBLISHABLE_KEY },
    });
    expect((await b.get("/panel/")).html).not.toContain("Gateways com credenciais recusadas");

    // Another tenant's member sees none of it.
    const other = await newTenant();
    const stranger = await newMember(other.tenantId, "VIEWER");
    const theirs = (await (await signIn(stranger.email, stranger.password)).get("/panel/")).html;
    expect(theirs).not.toContain(endpoint.id);
    expect(theirs).not.toContain("esquecida");
    expect(theirs).toContain("Nenhum evento ainda.");
  });
});
