// A Pix Pagar.me refuses (a 4xx about the request: a payer whose phone or document it does not take, Pix
// not enabled on the account) is a definitive refusal with its reason, not an outage: the hosted checkout
// answers 422 with the reason and keeps the visitor on the form; the renewal's D-3 Pix issuance writes a
// `declined` gateway event with Pagar.me's status and our code for the reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { CPF, EventLog, gatewayEvents } from "../helpers/billing.ts";
import { call, post } from "../helpers/http.ts";
import { deliverNotice, pagarmeOffer, pagarmeSubscription, paymentsOf, startPagarmeTestbed, subscriptionOf } from "../helpers/pagarme.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const DAY = 86_400_000;
/** A valid mobile, but not a Brazilian one: Pagar.me's phones take only a Brazilian number. */
const UK_MOBILE = "+447911123456";

function pixForm(ext: string, phone: string) {
  return { external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone, doc: CPF, method: "pix" };
}

describe("Pagar.me: a refused Pix is a refusal, not an outage", () => {
  it("hosted checkout: Pix with a phone Pagar.me refuses is 422 {error, code: pix_refused} with the reason (JSON), the form again with it (page)", async () => {
    const s = await pagarmeOffer(fake);
    const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
    const json = await call("POST", `/checkout/${s.offerId}`, { body: pixForm(ext, UK_MOBILE), as: "json", headers: { accept: "application/json" } });
    expect(json.status, JSON.stringify(json.body)).toBe(422);
    expect(json.body).toEqual({ error: expect.stringContaining("celular"), code: "pix_refused" });
    // Nothing Pagar.me echoed back (the CPF it read) reaches the answer.
    expect(JSON.stringify(json.body)).not.toContain(CPF);
    const page = await call("POST", `/checkout/${s.offerId}`, { body: pixForm(`${ext}-b`, UK_MOBILE), as: "form" });
    expect(page.status).toBe(422);
    expect(String(page.body)).toContain("celular");
    expect(String(page.body)).toContain('name="phone"');
  });

  it("hosted checkout: Pix at an account without Pix (412) is 422 pix_refused, never 503", async () => {
    const s = await pagarmeOffer(fake);
    fake.pixEnabled = false;
    try {
      const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
      const r = await call("POST", `/checkout/${s.offerId}`, { body: pixForm(ext, "11987654321"), as: "json", headers: { accept: "application/json" } });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body).toMatchObject({ code: "pix_refused" });
    } finally {
      fake.pixEnabled = true;
    }
  });

  it("renewal D-3: the customer's phone is now one Pagar.me refuses; the Pix issuance is declined 422 payer_phone_refused, not an error 502", async () => {
    const s = await pagarmeSubscription(fake, "pix");
    const [first] = await paymentsOf(s.subscriptionId);
    fake.payPix(first!.pixCopyPaste!);
    expect((await deliverNotice(s.accountId, fake.lastEvent("charge.paid", first!.gatewayChargeId!)!)).status).toBe(200);
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("active");
    const edit = await post(`/v1/customers/${encodeURIComponent(sub.customer.external_id)}`, s.t.writeKey, { name: "Maria Silva", email: sub.customer.email, phone: UK_MOBILE });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    const log = new EventLog(s.t);
    await log.advance(new Date(new Date(sub.current_period_end).getTime() - 3 * DAY).toISOString());
    const pix = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "create_pix");
    const rows = pix.map((e) => `${e.outcome}:${e.http_status}:${e.detail_code}`);
    expect(rows[0]).toBe("pending:200:"); // the checkout's Pix
    expect(rows.length).toBeGreaterThan(1);
    expect(new Set(rows.slice(1))).toEqual(new Set(["declined:422:payer_phone_refused"]));
  });
});
