// Every event the implemented flows emit reaches a real receiver on loopback: signed (our header and
// the Standard Webhooks one, checked with that library), with the documented envelope and data shape,
// exactly the event GET /v1/events lists, once each, and only to endpoints subscribed to its type.
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { verifyBillingSignature } from "../../core/webhooks/verify-signature.ts";
import { advanceClock, CARDS, EventLog, makeOffer, payPix, subscribe } from "../helpers/billing.ts";
import { op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint, deliveries, Receiver, type Received } from "../helpers/webhook-receiver.ts";

const openapi = createOpenApiValidator();

/** Independent check of X-Billing-Signature: ts and every v1 over `ts.raw_body`. */
function billingSignatures(r: Received): { ts: number; v1: string[] } {
  const parts = String(r.headers["x-billing-signature"]).split(",");
  return { ts: Number(parts[0]!.replace(/^ts=/, "")), v1: parts.slice(1).map((p) => p.replace(/^v1=/, "")) };
}

function expectSigned(r: Received, secret: string): void {
  const { ts, v1 } = billingSignatures(r);
  expect(Math.abs(Date.now() / 1000 - ts)).toBeLessThan(300); // transport time: the wall clock, not the sandbox's
  expect(v1).toContain(createHmac("sha256", secret).update(`${ts}.${r.raw}`).digest("hex"));
  expect(verifyBillingSignature(r.raw, String(r.headers["x-billing-signature"]), secret, Date.now())).toBe(true);
  // Any Standard Webhooks library accepts it.
  const std = new Webhook(secret.replace(/^whsec_/, "")).verify(r.raw, r.headers as Record<string, string>);
  expect(std).toEqual(r.body);
  expect(r.headers["webhook-id"]).toBe(r.body.id);
  expect(r.headers["webhook-timestamp"]).toBe(String(ts));
  expect(r.headers["x-billing-event-id"]).toBe(r.body.id);
  expect(r.headers["content-type"]).toBe("application/json");
}

describe("webhook delivery", () => {
  let all: Receiver;
  let some: Receiver;
  beforeAll(async () => {
    all = await Receiver.start();
    some = await Receiver.start();
  });
  afterAll(async () => {
    await all.stop();
    await some.stop();
  });

  it("delivers every emitted type, signed, with the documented envelope, once each, to subscribed endpoints", { timeout: 90_000 }, async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-02-01T10:00:00.000Z");
    const epAll = await addEndpoint(t, all.url);
    const subset = ["invoice.paid", "subscription.suspended"];
    const epSome = await addEndpoint(t, some.url, subset);
    const log = new EventLog(t);

    // Card checkout, a trial with a card, a Pix checkout paid, another left unpaid, a card that
    // declines after the first charge (dunning to suspension), a chargeback, an entitlements edit.
    await subscribe(t.monthlyOfferId);
    await subscribe(await makeOffer(t, { trialDays: 7 }));
    const pix = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(pix.pix!.copy_paste);
    await subscribe(t.monthlyOfferId, {}, { pix: true });
    await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    await subscribe(t.monthlyOfferId, { card_number: CARDS.chargeback });
    await op(`mutation($p: ID!) { updatePlanEntitlements(planId: $p, entitlements: {seats: 9, reports: true}) { id } }`, { p: t.planId });
    await log.advance("2027-03-15T10:00:00.000Z");

    const emitted = log.seen;
    const ids = new Set(emitted.map((e) => e.id));
    await all.waitFor((rs) => ids.size > 0 && [...ids].every((id) => rs.some((r) => r.body?.id === id)), 20_000);
    const wantSome = emitted.filter((e) => subset.includes(e.type));
    await some.waitFor((rs) => wantSome.every((e) => rs.some((r) => r.body?.id === e.id)), 20_000);

    expect(new Set(emitted.map((e) => e.type))).toEqual(
      new Set([
        "subscription.activated",
        "invoice.paid",
        "subscription.trial_started",
        "subscription.updated",
        "subscription.canceled",
        "invoice.payment_failed",
        "subscription.past_due",
        "subscription.suspended",
      ]),
    );
    // Exactly the events of GET /v1/events, byte for byte in meaning, each once (a healthy receiver
    // sees no duplicates), each signed with the endpoint's secret and shaped as the document says.
    expect(all.requests).toHaveLength(emitted.length);
    for (const e of emitted) {
      const [r, ...dupes] = all.of(e.id);
      expect(dupes).toHaveLength(0);
      expect(r!.body).toEqual(e);
      expect(Object.keys(r!.body).sort()).toEqual(["created_at", "data", "id", "tenant_id", "type"]);
      expect(r!.body.tenant_id).toBe(t.tenantId);
      expectSigned(r!, epAll.secret);
      const check = openapi.validateWebhook(e.type, r!.body);
      expect(check.errors, `${e.type}`).toEqual([]);
    }
    // Subscription and invoice events carry the full payload, with last_payment and tracking.
    for (const r of all.requests) expect(r.body.data).toHaveProperty("last_payment");
    for (const r of all.requests) expect(r.body.data).toHaveProperty("tracking");

    // The subset endpoint heard only its two types, all of them.
    expect(some.requests.map((r) => r.body.type).every((ty) => subset.includes(ty))).toBe(true);
    expect(some.requests.map((r) => r.body.id).sort()).toEqual(wantSome.map((e) => e.id).sort());
    for (const r of some.requests) expectSigned(r, epSome.secret);

    // The delivery log agrees: every delivery confirmed by its first attempt, with a status and latency.
    const log2 = await deliveries(t);
    expect(log2).toHaveLength(emitted.length + wantSome.length);
    for (const d of log2) {
      expect(d).toMatchObject({ status: "DELIVERED", attemptCount: 1, lastStatusCode: 200, nextAttemptAt: null });
      expect(d.attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("signs with both secrets for 24 h after a rotation", async () => {
    const t = await newTenant();
    const rcv = await Receiver.start();
    try {
      const ep = await addEndpoint(t, rcv.url);
      const { rotateWebhookSecret } = await op(`mutation($e: ID!) { rotateWebhookSecret(endpointId: $e) { secret } }`, { e: ep.id });
      await subscribe(t.monthlyOfferId);
      await rcv.waitFor((rs) => rs.length >= 2);
      for (const r of rcv.requests) {
        expect(billingSignatures(r).v1).toHaveLength(2);
        expectSigned(r, rotateWebhookSecret.secret);
        expectSigned(r, ep.secret);
        expect(String(r.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      }
      expect(verifyBillingSignature(rcv.requests[0]!.raw, String(rcv.requests[0]!.headers["x-billing-signature"]), "whsec_wrong", Date.now())).toBe(false);
    } finally {
      await rcv.stop();
    }
  });

  it("the receiver's check rejects a stale timestamp and a tampered body", () => {
    const secret = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTMyYg==";
    const body = '{"id":"evt_x"}';
    const ts = Math.floor(Date.now() / 1000);
    const sig = (at: number, b: string) => `ts=${at},v1=${createHmac("sha256", secret).update(`${at}.${b}`).digest("hex")}`;
    expect(verifyBillingSignature(body, sig(ts, body), secret, Date.now())).toBe(true);
    expect(verifyBillingSignature(body, sig(ts - 301, body), secret, Date.now())).toBe(false);
    expect(verifyBillingSignature(`${body} `, sig(ts, body), secret, Date.now())).toBe(false);
    expect(verifyBillingSignature(body, `ts=${ts},v1=zz`, secret, Date.now())).toBe(false);
  });
});
