// POST /v1/subscriptions/{id}/cancel and .../cancel/undo: every status code and body of the contract,
// the events (read back from GET /v1/events) and the recorded cancellation e-mail.
import { describe, expect, it } from "vitest";
import { advanceClock, EventLog, events, makeOffer, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { emails, setReadOnly, UNKNOWN_SUB } from "./lifecycle-helpers.ts";

const cancel = (id: string, key: string, body?: unknown, opts = {}) => post(`/v1/subscriptions/${id}/cancel`, key, body, opts);
const undo = (id: string, key: string) => post(`/v1/subscriptions/${id}/cancel/undo`, key);
const typesOf = async (t: Awaited<ReturnType<typeof newTenant>>, id: string) =>
  (await events(t)).filter((e) => e.data?.subscription_id === id).map((e) => `${e.type}:${e.data.status}`);

describe("POST /v1/subscriptions/{id}/cancel (immediate)", () => {
  it("cancels now with subscription.canceled and the e-mail carrying the reason; a second call is 200 with no new event", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    const r = await cancel(sub.subscription_id, t.writeKey, { reason: "Achei caro demais" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "canceled", ok: true, cancel_at_period_end: false, current_period_end: null });
    const now = await subscription(t, sub.subscription_id);
    expect(now).toMatchObject({ status: "canceled", cancel_at_period_end: false });
    expect(await typesOf(t, sub.subscription_id)).toEqual(["subscription.activated:active", "invoice.paid:active", "subscription.canceled:canceled"]);

    const again = await cancel(sub.subscription_id, t.writeKey);
    expect(again.status).toBe(200);
    expect(again.text).toBe(r.text);
    const scheduled = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    expect(scheduled.body).toEqual(r.body);
    expect((await events(t, "subscription.canceled")).length).toBe(1);

    const mail = await emails(t);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: "subscription_canceled", to: now.customer.email, customer_id: now.customer.id, created_at: "2027-03-10T10:00:00.000Z" });
    expect(mail[0]!.subject).toMatch(/^\[TESTE\] Sua assinatura do plano Pro foi cancelada/);
    expect(mail[0]!.body).toContain("Olá, Maria");
    expect(mail[0]!.body).toContain("foi cancelada em 10 de março de 2027");
    expect(mail[0]!.body).toContain("Motivo informado: Achei caro demais");
  });

  it("a cancellation without a reason records an e-mail without the reason line", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    expect((await cancel(sub.subscription_id, t.writeKey)).status).toBe(200);
    const [mail] = await emails(t);
    expect(mail!.body).not.toContain("Motivo");
  });

  it("two immediate cancels at once: one canceled state, one subscription.canceled, one e-mail", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const answers = await Promise.all([cancel(sub.subscription_id, t.writeKey, { reason: "a" }), cancel(sub.subscription_id, t.writeKey, { reason: "b" })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.every((a) => a.body.status === "canceled")).toBe(true);
    expect((await events(t, "subscription.canceled")).length).toBe(1);
    expect(await emails(t)).toHaveLength(1);
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");
  });

  it("422 while a payable Pix QR exists; once it expires the pending subscription can be canceled", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    expect(sub.status).toBe("pending_first_payment");
    const r = await cancel(sub.subscription_id, t.writeKey);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: "pix_payable" });
    expect(typeof r.body.error).toBe("string");
    expect((await subscription(t, sub.subscription_id)).status).toBe("pending_first_payment");
    // Scheduling is not possible either: pending_first_payment has no period to end.
    const s = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    expect(s.status).toBe(422);
    expect(s.body).toMatchObject({ code: "invalid_state", status: "pending_first_payment" });
  });

  it("422 for an active Pix subscription whose renewal QR is payable; paid, it cancels", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    expect((await cancel(sub.subscription_id, t.writeKey)).status).toBe(200);
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");

    const other = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(other.pix!.copy_paste);
    const issued = await advanceClock(t, "2027-04-28T12:00:00.000Z"); // 3 days before May 1
    expect(issued.pixIssued).toBe(1);
    const r = await cancel(other.subscription_id, t.writeKey);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("pix_payable");
  });

  it("400 for a reason over 300 characters or a non-boolean at_period_end; 300 characters pass", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const long = await cancel(sub.subscription_id, t.writeKey, { reason: "x".repeat(301) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: "reason_too_long" });
    const notBool = await cancel(sub.subscription_id, t.writeKey, { at_period_end: "yes" });
    expect(notBool.status).toBe(400);
    expect(notBool.body.code).toBe("invalid_body");
    const notString = await cancel(sub.subscription_id, t.writeKey, { reason: 42 });
    expect(notString.status).toBe(400);
    expect((await subscription(t, sub.subscription_id)).status).toBe("active");
    const ok = await cancel(sub.subscription_id, t.writeKey, { reason: "é".repeat(300), at_period_end: "true" }, { as: "form" });
    expect(ok.status).toBe(200);
    expect(ok.body.cancel_at_period_end).toBe(true);
  });

  it("403 for a read key; allowed in read-only mode (both modes); 404 identical for unknown, foreign and malformed ids", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const read = await cancel(sub.subscription_id, t.readKey);
    expect(read.status).toBe(403);
    expect(read.body.code).toBe("insufficient_scope");

    const foreign = await cancel(sub.subscription_id, other.writeKey);
    const unknown = await cancel(UNKNOWN_SUB, other.writeKey);
    const malformed = await cancel("sub_nope", other.writeKey);
    expect(foreign.status).toBe(404);
    expect(unknown.text).toBe(foreign.text);
    expect(malformed.text).toBe(foreign.text);
    expect((await subscription(t, sub.subscription_id)).status).toBe("active");

    await setReadOnly(t, true);
    const second = await subscribe(t.monthlyOfferId);
    const scheduled = await cancel(second.subscription_id, t.writeKey, { at_period_end: true });
    expect(scheduled.status).toBe(200);
    const now = await cancel(sub.subscription_id, t.writeKey);
    expect(now.status).toBe(200);
    expect(now.body.status).toBe("canceled");
    const lockedUndo = await undo(second.subscription_id, t.writeKey);
    expect(lockedUndo.status).toBe(403);
    expect(lockedUndo.body.code).toBe("account_locked");
    await setReadOnly(t, false);
  });

  it("suspended and past_due subscriptions can be canceled at once", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-06-01T00:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: "4000000000000341" });
    await advanceClock(t, "2027-07-01T01:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    await advanceClock(t, "2027-07-11T01:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("suspended");
    const s = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    expect(s.status).toBe(422);
    expect(s.body).toMatchObject({ code: "invalid_state", status: "suspended" });
    const r = await cancel(sub.subscription_id, t.writeKey);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("canceled");
  });
});

describe("POST /v1/subscriptions/{id}/cancel with at_period_end", () => {
  it("schedules: same status, subscription.updated, access until current_period_end; a second call adds no event", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    const r = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true, reason: "mudando de ferramenta" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "active", ok: true, cancel_at_period_end: true, current_period_end: "2027-04-10T10:00:00.000Z" });
    expect(await subscription(t, sub.subscription_id)).toMatchObject({ status: "active", cancel_at_period_end: true });
    const again = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    expect(again.body).toEqual(r.body);
    const updates = (await events(t, "subscription.updated")).filter((e) => e.data.subscription_id === sub.subscription_id);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.data).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await emails(t)).toHaveLength(0); // recorded when it takes effect
  });

  it("a trial with a card is scheduled for the trial end; a trial without card is canceled at once", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-05-01T08:00:00.000Z");
    const offerId = await makeOffer(t, { trialDays: 14 });
    const withCard = await subscribe(offerId);
    expect(withCard.status).toBe("trialing");
    const r = await cancel(withCard.subscription_id, t.writeKey, { at_period_end: true });
    expect(r.body).toEqual({ status: "trialing", ok: true, cancel_at_period_end: true, current_period_end: "2027-05-15T08:00:00.000Z" });

    const noCard = await subscribe(offerId, {}, { pix: true });
    expect(noCard.status).toBe("trialing");
    const n = await cancel(noCard.subscription_id, t.writeKey, { at_period_end: true });
    expect(n.status).toBe(200);
    expect(n.body).toEqual({ status: "canceled", ok: true, cancel_at_period_end: false, current_period_end: null });
    expect(await typesOf(t, noCard.subscription_id)).toEqual(["subscription.trial_started:trialing", "subscription.canceled:canceled"]);

    // The scheduled trial ends at its end without a charge.
    const passed = await advanceClock(t, "2027-05-16T00:00:00.000Z");
    expect(passed.renewed).toBe(0);
    expect((await subscription(t, withCard.subscription_id)).status).toBe("canceled");
    expect(await typesOf(t, withCard.subscription_id)).toEqual([
      "subscription.trial_started:trialing",
      "subscription.updated:trialing",
      "subscription.canceled:canceled",
    ]);
  });

  it("scenario: cancel at period end, then the clock passes the period end: canceled, no renewal charge, event and e-mail", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-01-31T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    const log = new EventLog(t);
    const r = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true, reason: "Vou pausar o projeto" });
    expect(r.body.current_period_end).toBe("2027-02-28T12:00:00.000Z");

    const before = await log.advance("2027-02-28T11:59:00.000Z");
    expect(before.canceled).toBe(0);
    expect((await subscription(t, sub.subscription_id)).status).toBe("active"); // access lasts to the period end

    const passed = await log.advance("2027-04-15T00:00:00.000Z");
    expect(passed).toMatchObject({ canceled: 1, renewed: 0, chargeFailed: 0 });
    const after = await subscription(t, sub.subscription_id);
    expect(after.status).toBe("canceled");
    expect(after.last_payment.paid_at).toBe("2027-01-31T12:00:00.000Z"); // no renewal charge
    const canceled = log.seen.filter((e) => e.type === "subscription.canceled");
    expect(canceled).toHaveLength(1);
    expect(canceled[0]!.created_at).toBe("2027-02-28T12:00:00.000Z");
    expect(log.of(sub.subscription_id)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "subscription.updated:active",
      "subscription.canceled:canceled",
    ]);
    const mail = await emails(t);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: "subscription_canceled", created_at: "2027-02-28T12:00:00.000Z" });
    expect(mail[0]!.body).toContain("Motivo informado: Vou pausar o projeto");
    expect(mail[0]!.body).toContain("28 de fevereiro de 2027");
  });

  it("a Pix subscription scheduled to cancel gets no renewal QR and ends at the period end", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    expect((await cancel(sub.subscription_id, t.writeKey, { at_period_end: true })).body.current_period_end).toBe("2027-05-01T12:00:00.000Z");
    const passed = await advanceClock(t, "2027-05-20T00:00:00.000Z");
    expect(passed).toMatchObject({ pixIssued: 0, pastDue: 0, canceled: 1 });
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");
  });

  it("past_due: scheduling stops the retries; it ends at the next run instant", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-06-01T00:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: "4000000000000341" });
    await advanceClock(t, "2027-07-01T01:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    const r = await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    expect(r.body).toEqual({ status: "past_due", ok: true, cancel_at_period_end: true, current_period_end: "2027-07-02T00:00:00.000Z" });
    const passed = await advanceClock(t, "2027-07-20T00:00:00.000Z");
    expect(passed).toMatchObject({ canceled: 1, chargeFailed: 0, suspended: 0 });
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");
  });
});

describe("POST /v1/subscriptions/{id}/cancel/undo", () => {
  it("undoes a schedule (subscription.updated) and the subscription renews normally", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    const r = await undo(sub.subscription_id, t.writeKey);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, cancel_at_period_end: false });
    expect((await subscription(t, sub.subscription_id)).cancel_at_period_end).toBe(false);
    const again = await undo(sub.subscription_id, t.writeKey);
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: "nothing_scheduled" });

    const log = new EventLog(t);
    const passed = await log.advance("2027-04-11T00:00:00.000Z");
    expect(passed).toMatchObject({ renewed: 1, canceled: 0 });
    expect(log.of(sub.subscription_id)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "subscription.updated:active",
      "subscription.updated:active",
      "invoice.paid:active",
    ]);
    expect(await emails(t)).toHaveLength(0);
  });

  it("a Pix subscription gets its renewal QR back after undo", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    await advanceClock(t, "2027-04-29T00:00:00.000Z"); // past the QR date: none issued while scheduled
    expect((await undo(sub.subscription_id, t.writeKey)).status).toBe(200);
    const passed = await advanceClock(t, "2027-04-29T00:01:00.000Z");
    expect(passed.pixIssued).toBe(1);
  });

  it("never resurrects a canceled subscription (422); 403 read key; 404 identical", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    await cancel(sub.subscription_id, t.writeKey, { at_period_end: true });
    expect((await undo(sub.subscription_id, t.readKey)).body.code).toBe("insufficient_scope");
    await cancel(sub.subscription_id, t.writeKey);
    const r = await undo(sub.subscription_id, t.writeKey);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("nothing_scheduled");
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");
    const foreign = await undo(sub.subscription_id, other.writeKey);
    expect(foreign.status).toBe(404);
    expect((await undo(UNKNOWN_SUB, other.writeKey)).text).toBe(foreign.text);
    expect((await undo("garbage", other.writeKey)).text).toBe(foreign.text);
  });
});
