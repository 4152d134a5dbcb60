// Pure rules of renewal campaigns: the audience and the token (the bonus arithmetic is addCycles, test/core/shared/periods.test.ts).
import { describe, expect, it } from "vitest";
import { audienceTarget, campaignLinkToken } from "../../../core/campaigns/campaign-rules.ts";

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
