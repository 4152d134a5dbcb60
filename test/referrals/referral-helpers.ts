// Referral test helpers: the operator's program mutation and the referring customer's link.
import { get, gql, op } from "../helpers/http.ts";
import type { TestTenant } from "../helpers/tenant.ts";

export const PROGRAM = `mutation($t: ID!, $r: ReferralRewardInput!, $q: Int!) {
  createReferralProgram(tenantId: $t, reward: $r, qualifyAfterPaidCycles: $q) { id rewardKind rewardValue rewardCycles qualifyAfterPaidCycles active } }`;

export async function createProgram(t: TestTenant, reward: { kind?: string; value: number; cycles: number }, qualifyAfterPaidCycles: number) {
  return (await op(PROGRAM, { t: t.tenantId, r: { kind: "percent_next", ...reward }, q: qualifyAfterPaidCycles })).createReferralProgram;
}

export function tryProgram(t: TestTenant, reward: { kind: string; value: number; cycles: number }, qualifyAfterPaidCycles: number) {
  return gql(PROGRAM, { t: t.tenantId, r: reward, q: qualifyAfterPaidCycles });
}

export async function referralLink(t: TestTenant, externalId: string, key = t.readKey) {
  const res = await get(`/v1/referrals/link?external_id=${encodeURIComponent(externalId)}`, key);
  if (res.status !== 200) throw new Error(`GET referral link ${res.status} ${res.text}`);
  return res.body;
}
