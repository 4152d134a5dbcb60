// Pure rules of renewal campaigns: the bonus arithmetic (anchor day kept), the audience, the token.
import { describe, expect, it } from "vitest";
import { addBonus, audienceTarget, campaignLinkToken } from "../../../core/campaigns/campaign-rules.ts";

const d = (iso: string) => new Date(iso);

describe("addBonus", () => {
  it.each([
    ["2027-04-01T12:00:00.000Z", 1, "month", 1, "2027-05-01T12:00:00.000Z"],
    ["2027-01-31T00:00:00.000Z", 1, "month", 31, "2027-02-28T00:00:00.000Z"],
    ["2028-01-31T00:00:00.000Z", 1, "month", 31, "2028-02-29T00:00:00.000Z"],
    ["2027-02-28T00:00:00.000Z", 1, "month", 31, "2027-03-31T00:00:00.000Z"],
    ["2027-12-15T08:30:00.000Z", 2, "month", 15, "2028-02-15T08:30:00.000Z"],
    ["2028-02-29T00:00:00.000Z", 1, "year", 29, "2029-02-28T00:00:00.000Z"],
    ["2027-12-31T23:00:00.000Z", 10, "day", 31, "2028-01-10T23:00:00.000Z"],
    ["2027-04-01T12:00:00.000Z", 0, "year", 1, "2027-04-01T12:00:00.000Z"],
  ])("%s + %i %s (anchor %i) = %s", (from, cycles, unit, anchor, expected) => {
    expect(addBonus(d(from), cycles, unit, anchor).toISOString()).toBe(expected);
  });
});

describe("audienceTarget", () => {
  const subs = [
    { id: "sub_01", status: "CANCELED", planId: "plan_a" },
    { id: "sub_02", status: "ACTIVE", planId: "plan_a" },
    { id: "sub_03", status: "PAST_DUE", planId: "plan_b" },
    { id: "sub_04", status: "PENDING_FIRST_PAYMENT", planId: "plan_b" },
  ];
  const none = { statuses: [], planIds: [], customerExternalIds: [] };
  it.each([
    [none, "sub_03"],
    [{ ...none, statuses: ["ACTIVE"] }, "sub_02"],
    [{ ...none, planIds: ["plan_a"] }, "sub_02"],
    [{ ...none, statuses: ["ACTIVE"], planIds: ["plan_b"] }, null],
    [{ ...none, statuses: ["SUSPENDED"] }, null],
    [{ ...none, customerExternalIds: ["alice"] }, "sub_03"],
    [{ ...none, customerExternalIds: ["bob"] }, null],
  ])("%j targets %s", (audience, expected) => {
    expect(audienceTarget(audience, { externalId: "alice" }, subs)?.id ?? null).toBe(expected);
  });
});

describe("campaignLinkToken", () => {
  it("is stable for a link and secret, differs across links and secrets, and fits the /pay token syntax", () => {
    const a = campaignLinkToken(Buffer.from("secret-1"), "lnk_A");
    expect(a).toBe(campaignLinkToken(Buffer.from("secret-1"), "lnk_A"));
    expect(a).not.toBe(campaignLinkToken(Buffer.from("secret-1"), "lnk_B"));
    expect(a).not.toBe(campaignLinkToken(Buffer.from("secret-2"), "lnk_A"));
    expect(a).toMatch(/^pl_[0-9A-Za-z]{40}$/);
  });
});
