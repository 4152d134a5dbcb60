// Prefixed, monotonic ULIDs for every record kind (contract fact 5).
import { monotonicFactory } from "ulid";

const next = monotonicFactory();

export const ID_PREFIX = {
  tenant: "tn",
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
