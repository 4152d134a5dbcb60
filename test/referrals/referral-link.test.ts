// Contract of GET /v1/referrals/link and of createReferralProgram: every status and message.
import { describe, expect, it } from "vitest";
import { events, subscribe } from "../helpers/billing.ts";
import { get, gql } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { schema } from "../../schema/schema.ts";
import { anotherPerson, createProgram, referralLink, tryProgram } from "./referral-helpers.ts";

describe("GET /v1/referrals/link", () => {
  it("400 without external_id or email, 404 for an unknown customer, 401 without a key", async () => {
    const t = await newTenant();
    await createProgram(t, { value: 10, cycles: 1 }, 1);
    for (const path of ["/v1/referrals/link", "/v1/referrals/link?external_id=", "/v1/referrals/link?email="]) {
      const res = await get(path, t.readKey);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "external_id or email is required", code: "missing_customer_key" });
    }
    const unknown = await get("/v1/referrals/link?external_id=nobody", t.readKey);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "customer not found", code: "not_found" });
    const byEmail = await get("/v1/referrals/link?email=nobody@example.com", t.writeKey);
    expect(byEmail.status).toBe(404);
    expect((await get("/v1/referrals/link?external_id=x", null)).status).toBe(401);
  });

  it("answers {active: false} while the tenant has no active program", async () => {
    const t = await newTenant();
    await subscribe(t.monthlyOfferId, { external_id: "ana", email: "ana@example.com" });
    const res = await get("/v1/referrals/link?external_id=ana", t.readKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ active: false });
  });

  it("gets or creates one stable code per customer (any scope, either key, concurrent first calls)", async () => {
    const t = await newTenant();
    await subscribe(t.monthlyOfferId, { external_id: "ana", email: "ana@example.com" });
    await createProgram(t, { value: 15, cycles: 2 }, 3);
    const first = await Promise.all(Array.from({ length: 6 }, (_, i) => referralLink(t, "ana", i % 2 ? t.readKey : t.writeKey)));
    const codes = new Set(first.map((l) => l.code));
    expect(codes.size).toBe(1);
    const link = first[0];
    expect(link).toEqual({
      active: true,
      code: expect.stringMatching(/^[A-Z2-9]{8}$/),
      url: expect.stringMatching(new RegExp(`/checkout/${t.monthlyOfferId}\\?ref=${link.code}$`)),
      reward: { kind: "percent_next", value: 15, cycles: 2 },
      progress: { pending: 0, qualified: 0, rewarded: 0, reverted: 0 },
    });
    const viaEmail = await get("/v1/referrals/link?email=ana@example.com", t.readKey);
    expect(viaEmail.body.code).toBe(link.code);
    // Without a subscription the link points at the tenant's oldest active recurring offer.
    const t2 = await newTenant();
    await createProgram(t2, { value: 15, cycles: 2 }, 1);
    await subscribe(t2.yearlyOfferId, { external_id: "bia" });
    expect((await referralLink(t2, "bia")).url).toMatch(new RegExp(`/checkout/${t2.yearlyOfferId}\\?ref=`));
  });
});

describe("createReferralProgram", () => {
  it("is an operator mutation with descriptions", () => {
    const field = schema.getMutationType()!.getFields().createReferralProgram!;
    expect(field.description).toBeTruthy();
    expect(field.args.map((a) => a.name).sort()).toEqual(["qualifyAfterPaidCycles", "reward", "tenantId"]);
  });

  it("validates kind, value, cycles and qualifyAfterPaidCycles; refuses tenant keys", async () => {
    const t = await newTenant();
    const cases: [{ kind: string; value: number; cycles: number }, number, string][] = [
      [{ kind: "cash", value: 10, cycles: 1 }, 1, "reward.kind must be percent_next"],
      [{ kind: "percent_next", value: 0, cycles: 1 }, 1, "reward.value must be an integer from 1 to 100"],
      [{ kind: "percent_next", value: 101, cycles: 1 }, 1, "reward.value must be an integer from 1 to 100"],
      [{ kind: "percent_next", value: 10, cycles: 0 }, 1, "reward.cycles must be an integer of at least 1"],
      [{ kind: "percent_next", value: 10, cycles: 1 }, 0, "qualifyAfterPaidCycles must be an integer of at least 1"],
    ];
    for (const [reward, q, message] of cases) {
      const res = await tryProgram(t, reward, q);
      expect(res.errors?.[0]?.extensions?.code, message).toBe("invalid_argument");
      expect(res.errors?.[0]?.message).toBe(message);
    }
    const denied = await gql(
      `mutation($t: ID!) { createReferralProgram(tenantId: $t, reward: {kind: "percent_next", value: 10, cycles: 1}, qualifyAfterPaidCycles: 1) { id } }`,
      { t: t.tenantId },
      t.writeKey,
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe("operator_only");
    const unknown = await tryProgram({ ...t, tenantId: "tn_01J00000000000000000000000" }, { kind: "percent_next", value: 10, cycles: 1 }, 1);
    expect(unknown.errors?.[0]?.extensions?.code).toBe("not_found");
  });

  it("a second program replaces the first: new referrals and the link use it", async () => {
    const t = await newTenant();
    const first = await createProgram(t, { value: 10, cycles: 1 }, 1);
    const second = await createProgram(t, { value: 25, cycles: 3 }, 2);
    expect(second).toMatchObject({ rewardKind: "percent_next", rewardValue: 25, rewardCycles: 3, qualifyAfterPaidCycles: 2, active: true });
    expect(first.id).not.toBe(second.id);
    await subscribe(t.monthlyOfferId, { external_id: "ana" });
    expect((await referralLink(t, "ana")).reward).toEqual({ kind: "percent_next", value: 25, cycles: 3 });
    const { code } = await referralLink(t, "ana");
    await subscribe(t.monthlyOfferId, { external_id: "bia", ref: code, ...anotherPerson() });
    const created = await events(t, "referral.created");
    expect(created.map((e) => e.data.reward)).toEqual([{ kind: "percent_next", value: 25, cycles: 3 }]);
  });
});
