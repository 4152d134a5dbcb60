// Referral stories on the sandbox clock: checkout with `ref` to the reward on the referrer's renewals
// (exact cents on the invoice payment and the payload), and the reversals (refund, chargeback, churn).
import { describe, expect, it } from "vitest";
import { advanceClock, events, subscribe, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { isAppError } from "../../core/shared/errors.ts";
import { moveStatus } from "../../core/shared/transition.ts";
import { REFERRAL } from "../../prisma/status-machines.ts";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { refund } from "../refunds/refund-helpers.ts";
import { anotherPerson, createProgram, referralLink } from "./referral-helpers.ts";

const openapi = createOpenApiValidator();
const T0 = "2027-03-01T12:00:00.000Z";

async function referralEvents(t: TestTenant) {
  const all = (await events(t)).filter((e) => e.type.startsWith("referral."));
  for (const e of all) expect(openapi.validateWebhook(e.type, e).errors, e.type).toEqual([]);
  return all;
}

/** The referrer (ana) subscribed at T0, the referred (bia) a day later with ana's code. */
async function story(reward: { value: number; cycles: number }, qualifyAfter: number) {
  const t = await newTenant();
  await advanceClock(t, T0);
  await createProgram(t, reward, qualifyAfter);
  const ana = await subscribe(t.monthlyOfferId, { external_id: "ana", email: "ana@example.com", name: "Ana Souza" });
  const { code } = await referralLink(t, "ana");
  await advanceClock(t, "2027-03-02T12:00:00.000Z");
  const bia = await subscribe(t.monthlyOfferId, { external_id: "bia", email: "bia@example.com", name: "Bia Lima", ref: code, ...anotherPerson() });
  return { t, code, anaSub: ana.subscription_id, biaSub: bia.subscription_id };
}

const paidOf = async (t: TestTenant, subscriptionId: string) =>
  (await events(t, "invoice.paid")).filter((e) => e.data.subscription_id === subscriptionId).map((e) => e.data.last_payment.amount_cents);

describe("referral scenarios", () => {
  it("checkout with ref -> pending -> qualified after 2 paid cycles -> rewarded: 15% off the referrer's next 2 renewals", async () => {
    const { t, anaSub, biaSub } = await story({ value: 15, cycles: 2 }, 2);
    let log = await referralEvents(t);
    expect(log.map((e) => e.type)).toEqual(["referral.created"]);
    const referralId = log[0]!.data.referral_id;
    expect(log[0]!.data).toMatchObject({
      status: "pending",
      referrer: { email: "ana@example.com", name: "Ana Souza" },
      referred: { email: "bia@example.com", name: "Bia Lima" },
      reward: { kind: "percent_next", value: 15, cycles: 2 },
    });
    expect((await referralLink(t, "ana")).progress).toEqual({ pending: 1, qualified: 0, rewarded: 0, reverted: 0 });

    // Ana renews first (Apr 1, full price); Bia's second paid cycle (Apr 2) qualifies the referral.
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    expect((await referralEvents(t)).map((e) => e.type)).toEqual(["referral.created"]);
    await advanceClock(t, "2027-04-02T12:00:00.000Z");
    log = await referralEvents(t);
    // GET /v1/events keeps the last 30 days of the tenant's clock: referral.created (Mar 2) aged out.
    expect(log.map((e) => [e.type, e.data.status, e.data.referral_id])).toEqual([
      ["referral.qualified", "qualified", referralId],
      ["referral.rewarded", "rewarded", referralId],
    ]);
    expect((await referralLink(t, "ana")).progress).toEqual({ pending: 0, qualified: 0, rewarded: 1, reverted: 0 });
    // 4990 less 15% = 4990 - 748.5 -> 749 (half up) = 4241.
    expect((await subscription(t, anaSub)).next_charge_amount_cents).toBe(4241);
    const updated = (await events(t, "subscription.updated")).filter((e) => e.data.subscription_id === anaSub).at(-1)!;
    expect(updated.data.next_charge_amount_cents).toBe(4241);
    expect((await subscription(t, biaSub)).next_charge_amount_cents).toBe(4990);

    await advanceClock(t, "2027-05-01T12:00:00.000Z");
    expect((await paidOf(t, anaSub)).at(-1)).toBe(4241);
    expect((await subscription(t, anaSub)).next_charge_amount_cents).toBe(4241);
    await advanceClock(t, "2027-06-01T12:00:00.000Z");
    const june = (await events(t, "invoice.paid")).filter((e) => e.data.subscription_id === anaSub).at(-1)!;
    expect(june.data.last_payment).toMatchObject({ amount_cents: 4241, paid_amount_cents: 4241 });
    expect(june.data.next_charge_amount_cents).toBe(4990);
    await advanceClock(t, "2027-07-01T12:00:00.000Z");
    const july = (await events(t, "invoice.paid")).filter((e) => e.data.subscription_id === anaSub).at(-1)!;
    expect(july.data.last_payment.amount_cents).toBe(4990);
    // The referred customer pays full price throughout.
    expect((await events(t, "invoice.paid")).filter((e) => e.data.subscription_id === biaSub).map((e) => e.data.last_payment.amount_cents)).toEqual([4990]);
  });

  it("qualifyAfterPaidCycles 1: the checkout's paid cycle qualifies and rewards at once", async () => {
    const { t, anaSub } = await story({ value: 50, cycles: 1 }, 1);
    expect((await referralEvents(t)).map((e) => e.type)).toEqual(["referral.created", "referral.qualified", "referral.rewarded"]);
    expect((await subscription(t, anaSub)).next_charge_amount_cents).toBe(2495);
  });

  it("a total refund of the referred payment before qualifying reverts the referral", async () => {
    const { t, biaSub } = await story({ value: 15, cycles: 2 }, 2);
    const paymentId = (await events(t, "subscription.activated")).find((e) => e.data.subscription_id === biaSub)!.data.last_payment.payment_id;
    expect((await refund(t, paymentId, { amount_cents: 4990, reason: "arrependimento" })).body.level).toBe("success");
    const log = await referralEvents(t);
    expect(log.map((e) => [e.type, e.data.status])).toEqual([["referral.created", "pending"], ["referral.reverted", "reverted"]]);
    expect(log[1]!.data.reward).toEqual({ kind: "percent_next", value: 15, cycles: 2 });
    expect((await referralLink(t, "ana")).progress).toEqual({ pending: 0, qualified: 0, rewarded: 0, reverted: 1 });
    // Later paid cycles never revive it (the first events aged out of the 30-day window by then).
    await advanceClock(t, "2027-04-02T12:00:00.000Z");
    expect((await referralEvents(t)).map((e) => e.type)).toEqual([]);
    expect((await referralLink(t, "ana")).progress).toEqual({ pending: 0, qualified: 0, rewarded: 0, reverted: 1 });
  });

  it("the referred subscription canceled before qualifying reverts; after qualifying it does not", async () => {
    const { t, biaSub } = await story({ value: 15, cycles: 2 }, 2);
    const res = await post(`/v1/subscriptions/${biaSub}/cancel`, t.writeKey, {});
    expect(res.status).toBe(200);
    expect((await referralEvents(t)).map((e) => e.type)).toEqual(["referral.created", "referral.reverted"]);

    const other = await story({ value: 15, cycles: 2 }, 1);
    expect((await referralEvents(other.t)).map((e) => e.type)).toEqual(["referral.created", "referral.qualified", "referral.rewarded"]);
    expect((await post(`/v1/subscriptions/${other.biaSub}/cancel`, other.t.writeKey, {})).status).toBe(200);
    expect((await referralEvents(other.t)).map((e) => e.type)).toEqual(["referral.created", "referral.qualified", "referral.rewarded"]);
    expect((await subscription(other.t, other.anaSub)).next_charge_amount_cents).toBe(4241);
  });

  it("a reverted referral never comes back: the transition table and the database refuse every move out of reverted", async () => {
    const { t, biaSub } = await story({ value: 15, cycles: 2 }, 2);
    expect((await post(`/v1/subscriptions/${biaSub}/cancel`, t.writeKey, {})).status).toBe(200);
    const db = (await testService()).runtime.db.prisma;
    const referral = await db.referral.findFirstOrThrow({ where: { tenantId: t.tenantId, referredSubscriptionId: biaSub } });
    expect(referral.status).toBe("REVERTED");
    for (const to of ["PENDING", "QUALIFIED", "REWARDED", "REVERTED"]) {
      const answer = await db
        .$executeRawUnsafe(`UPDATE referrals SET status = $1::"ReferralStatus" WHERE id = $2`, to, referral.id)
        .then(() => "accepted", (e: Error) => e.message + JSON.stringify((e as { meta?: unknown }).meta ?? ""));
      expect(answer, `REVERTED -> ${to}`).toMatch(/referrals_status_transition/);
    }
    await expect(moveStatus(db, REFERRAL, { id: referral.id, tenantId: t.tenantId, to: "QUALIFIED" })).rejects.toSatisfy((e) => isAppError(e) && e.status === 409);
    expect((await referralLink(t, "ana")).progress).toEqual({ pending: 0, qualified: 0, rewarded: 0, reverted: 1 });
    expect((await referralEvents(t)).map((e) => e.type)).toEqual(["referral.created", "referral.reverted"]);
  });

  it("a chargeback of the referred after the reward withdraws the unused discount cycles", async () => {
    const { t, anaSub, biaSub } = await story({ value: 15, cycles: 2 }, 1);
    expect((await subscription(t, anaSub)).next_charge_amount_cents).toBe(4241);
    const paymentId = (await events(t, "subscription.activated")).find((e) => e.data.subscription_id === biaSub)!.data.last_payment.payment_id;
    await op(`mutation($p: ID!) { simulateChargeback(paymentId: $p) { id } }`, { p: paymentId });
    const log = await referralEvents(t);
    expect(log.map((e) => [e.type, e.data.status])).toEqual([
      ["referral.created", "pending"],
      ["referral.qualified", "qualified"],
      ["referral.rewarded", "rewarded"],
      ["referral.reverted", "reverted"],
    ]);
    expect((await subscription(t, anaSub)).next_charge_amount_cents).toBe(4990);
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    expect(await paidOf(t, anaSub)).toContain(4990);
    expect((await referralLink(t, "ana")).progress).toEqual({ pending: 0, qualified: 0, rewarded: 0, reverted: 1 });
  });

  it("ignores an unknown code, a self-referral and a second referral of the same customer", async () => {
    const { t, code } = await story({ value: 15, cycles: 2 }, 2);
    const unknown = await subscribe(t.monthlyOfferId, { external_id: "caio", ref: "NOPE2345" });
    expect(unknown.status).toBe("active");
    await subscribe(t.monthlyOfferId, { external_id: "ana", email: "ana@example.com", ref: code }); // ana's own code
    await subscribe(t.monthlyOfferId, { external_id: "bia", email: "bia@example.com", ref: code }); // bia already referred
    expect((await referralEvents(t)).map((e) => e.type)).toEqual(["referral.created"]);
    // Codes are matched case-insensitively.
    await subscribe(t.monthlyOfferId, { external_id: "duda", ref: code.toLowerCase(), ...anotherPerson() });
    expect((await referralEvents(t)).map((e) => e.type)).toEqual(["referral.created", "referral.created"]);
  });
});
