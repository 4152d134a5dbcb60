// Self-referral through an e-mail alias. The referrer checked out again under a
// `+alt` e-mail with the same CPF, phone and card, used their own code and collected the reward. A
// referral is now ignored when the referred customer shares the referrer's document, mobile,
// mailbox or card fingerprint (brand, last 4, expiry); a genuinely different customer still counts.
import { describe, expect, it } from "vitest";
import { advanceClock, CPF, events, subscribe, subscription } from "../helpers/billing.ts";
import { newTenant } from "../helpers/tenant.ts";
import { anotherPerson, createProgram, referralLink } from "../referrals/referral-helpers.ts";

const T0 = "2027-03-01T12:00:00.000Z";
const REFERRER = { doc: CPF, phone: "11987654321", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035" };

/**
 * Ana (the referrer) subscribes; a second checkout uses her code with `fields`. The program pays
 * 50% of one renewal as soon as the referred checkout's first cycle is paid (qualify after 1).
 * Returns what the referrer got: the referral events and her next charge.
 */
async function referredBy(fields: Record<string, string>) {
  const t = await newTenant();
  await advanceClock(t, T0);
  await createProgram(t, { value: 50, cycles: 1 }, 1);
  const ana = await subscribe(t.monthlyOfferId, { external_id: "ana", email: "ana@example.com", name: "Ana Souza", ...REFERRER });
  const { code } = await referralLink(t, "ana");
  const referred = await subscribe(t.monthlyOfferId, { external_id: "ana-alt", email: "ana+alt@example.com", name: "Ana S.", ...anotherPerson(), ref: code, ...fields });
  expect(referred.status).toBe("active"); // the sale itself never fails
  return {
    types: (await events(t)).filter((e) => e.type.startsWith("referral.")).map((e) => e.type),
    progress: (await referralLink(t, "ana")).progress,
    nextCharge: (await subscription(t, ana.subscription_id)).next_charge_amount_cents,
  };
}

const IGNORED = { types: [], progress: { pending: 0, qualified: 0, rewarded: 0, reverted: 0 }, nextCharge: 4990 };

describe("self-referral is ignored", () => {
  it("the finding: same CPF, phone and card under a +alt e-mail -> no referral, no reward", async () => {
    expect(await referredBy({ ...REFERRER })).toEqual(IGNORED);
  });

  it("the same document alone (own phone, card and e-mail) -> ignored", async () => {
    expect(await referredBy({ email: "someone.else@example.net", doc: CPF })).toEqual(IGNORED);
  });

  it("the same mobile alone, typed another way -> ignored", async () => {
    expect(await referredBy({ email: "someone.else@example.net", phone: "+55 (11) 98765-4321" })).toEqual(IGNORED);
  });

  it("the same card alone (brand, last 4 and expiry; a new gateway token) -> ignored", async () => {
    expect(await referredBy({ email: "someone.else@example.net", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035" })).toEqual(IGNORED);
  });

  it("the same mailbox alone (+alias, other case) -> ignored", async () => {
    expect(await referredBy({ email: "Ana+Promo@Example.com" })).toEqual(IGNORED);
  });

  it("a genuinely different customer -> created, qualified and rewarded as before (50% off the next renewal)", async () => {
    expect(await referredBy({ email: "bia@example.com", name: "Bia Lima" })).toEqual({
      types: ["referral.created", "referral.qualified", "referral.rewarded"],
      progress: { pending: 0, qualified: 0, rewarded: 1, reverted: 0 },
      nextCharge: 2495,
    });
  });
});
