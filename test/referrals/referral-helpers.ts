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

const digit = () => Math.floor(Math.random() * 10);

/** A random CPF with valid check digits. */
export function randomCpf(): string {
  const base = Array.from({ length: 9 }, digit);
  const check = (ds: number[]) => {
    const sum = ds.reduce((s, d, i) => s + d * (ds.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = check(base);
  const d2 = check([...base, d1]);
  const cpf = [...base, d1, d2].join("");
  return /^(\d)\1{10}$/.test(cpf) ? randomCpf() : cpf;
}

/** A random Luhn-valid Visa number outside the sandbox's behaviour cards (so it approves). */
export function randomCardNumber(): string {
  const body = [4, 1, 1, 1, ...Array.from({ length: 11 }, digit)];
  const sum = body.reduceRight((s, d, i) => {
    const fromRight = body.length - i; // the check digit will sit at position 1 from the right
    const v = fromRight % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
    return s + v;
  }, 0);
  const number = [...body, (10 - (sum % 10)) % 10].join("");
  return number.endsWith("4242") ? randomCardNumber() : number; // never the default card's last 4
}

/**
 * Checkout fields of another person: their own CPF, mobile and card. The hosted-checkout helper
 * gives every customer the same ones, and a referral between records sharing any of them is a
 * self-referral (not counted).
 */
export function anotherPerson(): Record<string, string> {
  return {
    doc: randomCpf(),
    phone: `119${8 + Math.floor(Math.random() * 2)}${Array.from({ length: 7 }, digit).join("")}`,
    card_number: randomCardNumber(),
  };
}
