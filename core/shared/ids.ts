// Prefixed, monotonic ULIDs for every record kind (contract fact 5).
import { randomFillSync } from "node:crypto";
import { monotonicFactory, ulid as plainUlid } from "ulid";

// ulid's own PRNG asks crypto for one byte per character (16 calls an id, a cost that shows under
// load); this draws the same CSPRNG bytes from a pool refilled 4 KiB at a time.
const pool = Buffer.alloc(4096);
let used = pool.length;
function pooledRandom(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]! / 256; // [0, 1): each of ulid's 32 symbols from exactly 8 byte values
}

const next = monotonicFactory(pooledRandom);
/** A plain (not monotonic) ULID: request ids, sandbox gateway references. */
export const ulid = (): string => plainUlid(undefined, pooledRandom);

export const ID_PREFIX = {
  tenant: "tn",
  tenantUser: "usr",
  panelSession: "pss",
  teamLink: "tml",
  apiKey: "key",
  customer: "cus",
  product: "prod",
  plan: "plan",
  offer: "offer",
  coupon: "cpn",
  couponRedemption: "red",
  gatewayAccount: "gwa",
  paymentMethod: "pm",
  subscription: "sub",
  invoice: "inv",
  payment: "pay",
  paymentItem: "pit",
  refund: "rf",
  order: "ord",
  grant: "grt",
  gatewayEvent: "gev",
  gatewayNotification: "gwn",
  sandboxCharge: "ch_sbx",
  event: "evt",
  webhookEndpoint: "we",
  webhookDelivery: "dlv",
  webhookAttempt: "wat",
  link: "lnk",
  referralProgram: "rp",
  referralCode: "rc",
  referral: "rfr",
  renewalCampaign: "cmp",
  campaignLink: "cl",
  email: "eml",
  audit: "aud",
  idempotency: "idk",
  checkoutIntent: "chi",
} as const;

export type IdKind = keyof typeof ID_PREFIX;

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${next()}`;
}

const ULID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `id` is `<prefix>_<ULID>` for the given kind. Malformed ids are answered like unknown ones. */
export function isId(kind: IdKind, id: string): boolean {
  const prefix = `${ID_PREFIX[kind]}_`;
  return id.startsWith(prefix) && ULID_BODY.test(id.slice(prefix.length));
}
