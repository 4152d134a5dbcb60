// The vendor's alarms, to the tenant's contact addresses (updateTenantContacts): a webhook endpoint
// whose deliveries are exhausted, a gateway account whose credentials the provider refuses. At most one
// e-mail per endpoint (account) per day of the tenant's clock; none when no contact address is set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpMailer } from "../../core/emails/mailer.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock, checkout, subscribe } from "../helpers/billing.ts";
import { gql, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { SECRET_KEY, stripeOffer, WEBHOOK_SECRET } from "../helpers/stripe.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { addEndpoint, deliveries, receiversPerTest } from "../helpers/webhook-receiver.ts";
import { emailRows, startSmtpSink, toAddresses, type SmtpSink } from "./email-rows.ts";

const T0 = "2027-05-10T12:00:00.000Z";
const DAY = 86_400_000;
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

const setContacts = (t: TestTenant, emails: string[]) =>
  gql(`mutation($t: ID!, $e: [String!]!) { updateTenantContacts(tenantId: $t, emails: $e) { id contactEmails } }`, { t: t.tenantId, e: emails });

const receiver = receiversPerTest();
const sinks: SmtpSink[] = [];
let stripe: FakeStripe;
/** Keys the fake Stripe answers 401 (a key rolled at the provider after the account was connected). */
const revoked: string[] = [];
beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, revokedKeys: revoked });
});
afterAll(async () => {
  await stripe?.close();
  await Promise.all(sinks.map((s) => s.close()));
});

/** A sandbox tenant at T0 whose only endpoint answers 503. */
async function failingEndpoint(contacts: string[]) {
  const t = await newTenant();
  if (contacts.length) expect((await setContacts(t, contacts)).errors).toBeUndefined();
  await advanceClock(t, T0);
  const rcv = await receiver();
  rcv.answer = () => ({ status: 503 });
  const endpoint = await addEndpoint(t, rcv.url);
  return { t, rcv, endpoint };
}

describe("updateTenantContacts", { timeout: 120_000 }, () => {
  it("sets the list (trimmed, lower-cased, deduplicated); an empty list clears it", async () => {
    const t = await newTenant();
    const set = await setContacts(t, [" Ops@Example.com ", "ops@example.com", "dev@example.com.br"]);
    expect(set.errors).toBeUndefined();
    expect(set.data.updateTenantContacts.contactEmails).toEqual(["ops@example.com", "dev@example.com.br"]);
    const read = await op(`query($t: ID!) { tenant(id: $t) { contactEmails } }`, { t: t.tenantId });
    expect(read.tenant.contactEmails).toEqual(["ops@example.com", "dev@example.com.br"]);
    expect((await setContacts(t, [])).data.updateTenantContacts.contactEmails).toEqual([]);
  });

  it("refuses what is not an address, a header injection, more than 10, and tenant keys", async () => {
    const t = await newTenant();
    await setContacts(t, ["ops@example.com"]);
    for (const bad of [["not-an-address"], ["ops@example.com\r\nBcc: x@evil.test"], ["a@b"], ["Ops <ops@example.com>"], Array.from({ length: 11 }, (_, i) => `ops${i}@example.com`)]) {
      const r = await setContacts(t, bad);
      expect(r.errors?.[0]?.extensions?.code, JSON.stringify(bad)).toBe("invalid_argument");
    }
    const byTenant = await gql(`mutation($t: ID!) { updateTenantContacts(tenantId: $t, emails: ["x@example.com"]) { id } }`, { t: t.tenantId }, t.writeKey);
    expect(byTenant.errors?.length).toBeGreaterThan(0);
    expect((await op(`query($t: ID!) { tenant(id: $t) { contactEmails } }`, { t: t.tenantId })).tenant.contactEmails).toEqual(["ops@example.com"]);
  });
});

describe("webhook_endpoint_failing", { timeout: 120_000 }, () => {
  it("deliveries exhausted the same day: one e-mail for the endpoint; another day: another; delivered over SMTP", async () => {
    const { t, endpoint, rcv } = await failingEndpoint(["ops@example.com"]);
    const sub = await subscribe(t.monthlyOfferId); // subscription.activated + invoice.paid: two deliveries
    await rcv.waitFor((rs) => rs.length === 2);
    await advanceClock(t, plusDays(T0, 3));
    const exhausted = await deliveries(t, { status: "EXHAUSTED" });
    expect(exhausted).toHaveLength(2);

    let rows = await emailRows(t.tenantId, "webhook_endpoint_failing");
    expect(rows).toHaveLength(1);
    // The 7th attempt: 1956 minutes after T0, on the tenant's clock.
    const lastAttempt = new Date(Date.parse(T0) + 1956 * 60_000).toISOString();
    expect(rows[0]).toMatchObject({ to: "ops@example.com", sourceKey: `${endpoint.id}:${lastAttempt.slice(0, 10)}`, customerId: null, status: "PENDING" });
    expect(rows[0]!.createdAt.toISOString()).toBe(lastAttempt);
    expect(rows[0]!.params).toEqual({ endpointUrl: rcv.url, reason: "exhausted", at: lastAttempt, eventType: expect.stringMatching(/^(subscription\.activated|invoice\.paid)$/) });
    expect(rows[0]!.subject).toBe(`[TESTE] Entregas de webhook esgotadas: ${rcv.url}`);

    // A later event, exhausted on a later day: a second e-mail (one per endpoint per day).
    expect((await post(`/v1/subscriptions/${sub.subscription_id}/cancel`, t.writeKey, {})).status).toBe(200);
    await rcv.waitFor((rs) => rs.some((r) => r.body?.type === "subscription.canceled")); // its first attempt, at once
    await advanceClock(t, plusDays(T0, 7));
    expect((await deliveries(t, { status: "EXHAUSTED" })).length).toBeGreaterThanOrEqual(3);
    rows = await emailRows(t.tenantId, "webhook_endpoint_failing");
    expect(rows).toHaveLength(2);
    expect(rows[1]!.sourceKey).toBe(`${endpoint.id}:${plusDays(T0, 4).slice(0, 10)}`);

    const smtp = await startSmtpSink();
    sinks.push(smtp);
    const { runtime } = await testService();
    const sent = await sendEmails(runtime, { mailer: smtpMailer(smtp.url), tenantId: t.tenantId });
    expect(sent.sent).toBeGreaterThanOrEqual(2);
    const alarms = smtp.received.filter((m) => m.subject?.includes("Entregas de webhook esgotadas"));
    expect(alarms).toHaveLength(2);
    for (const m of alarms) expect(toAddresses(m)).toEqual(["ops@example.com"]);
  });

  it("no contact address: the deliveries exhaust, no e-mail is queued", async () => {
    const { t, rcv } = await failingEndpoint([]);
    await subscribe(t.monthlyOfferId);
    await rcv.waitFor((rs) => rs.length === 2);
    await advanceClock(t, plusDays(T0, 3));
    expect(await deliveries(t, { status: "EXHAUSTED" })).toHaveLength(2);
    expect(await emailRows(t.tenantId, "webhook_endpoint_failing")).toEqual([]);
  });
});

describe("gateway_credentials_refused", { timeout: 120_000 }, () => {
  it("a Stripe key refused (401) on checkouts: one e-mail per account per day, to the contacts; none without contacts", async () => {
    const alarmed = await stripeOffer(stripe);
    const silent = await stripeOffer(stripe);
    expect((await setContacts(alarmed.t, ["finance@example.com"])).errors).toBeUndefined();
    await advanceClock(alarmed.t, T0);
    await advanceClock(silent.t, T0);
    // The key is rolled at Stripe after the account was connected: every call now answers 401.
    revoked.push(SECRET_KEY);
    try {
      for (let i = 0; i < 3; i++) expect((await checkout(alarmed.offerId, {}, { pix: true })).status).toBeGreaterThanOrEqual(400);
      expect((await checkout(silent.offerId, {}, { pix: true })).status).toBeGreaterThanOrEqual(400);
    } finally {
      revoked.splice(0);
    }
    const rows = await emailRows(alarmed.t.tenantId);
    expect(rows.map((r) => r.kind)).toEqual(["gateway_credentials_refused"]);
    expect(rows[0]).toMatchObject({ to: "finance@example.com", sourceKey: `${alarmed.accountId}:${T0.slice(0, 10)}`, customerId: null });
    expect(rows[0]!.params).toEqual({ provider: "stripe", account: "stripe", at: T0 });
    expect(JSON.stringify(rows[0])).not.toContain(SECRET_KEY);
    expect(await emailRows(silent.t.tenantId, "gateway_credentials_refused")).toEqual([]);

    // Still refused the next day: a new e-mail.
    revoked.push(SECRET_KEY);
    try {
      await advanceClock(alarmed.t, plusDays(T0, 1));
      expect((await checkout(alarmed.offerId, {}, { pix: true })).status).toBeGreaterThanOrEqual(400);
    } finally {
      revoked.splice(0);
    }
    expect((await emailRows(alarmed.t.tenantId, "gateway_credentials_refused")).map((r) => r.sourceKey)).toEqual([
      `${alarmed.accountId}:${T0.slice(0, 10)}`,
      `${alarmed.accountId}:${plusDays(T0, 1).slice(0, 10)}`,
    ]);
  });
});
