// Pure rules of renewal campaigns: the bonus arithmetic, who is in the audience, the link object,
// and the deterministic token of a campaign link (so an idempotent re-get returns the same token
// while only the token's SHA-256 is stored).
import { createHmac } from "node:crypto";

export const BONUS_UNITS = ["day", "month", "year"] as const;
export type BonusUnit = (typeof BONUS_UNITS)[number];

/** Statuses an audience may name: a canceled or never-paid subscription has no period to extend. */
export const AUDIENCE_STATUSES = ["TRIALING", "ACTIVE", "PAST_DUE", "SUSPENDED"] as const;

/** Stored in renewal_campaigns.audience. An empty list does not filter. */
export interface Audience {
  statuses: string[];
  planIds: string[];
  customerExternalIds: string[];
}

export function readAudience(raw: unknown): Audience {
  const a = (raw ?? {}) as Partial<Audience>;
  return { statuses: a.statuses ?? [], planIds: a.planIds ?? [], customerExternalIds: a.customerExternalIds ?? [] };
}

/**
 * The audience is a conjunction: the customer is named in customerExternalIds (when that list is
 * not empty) AND owns a subscription whose status is in statuses and whose plan is in planIds
 * (each filter applies only when its list is not empty). Returns the targeted subscription: the
 * newest one that matches, or null when the customer is outside the audience. Canceled and
 * pending_first_payment subscriptions never match (nothing to extend).
 */
export function audienceTarget<S extends { id: string; status: string; planId: string }>(
  audience: Audience,
  customer: { externalId: string },
  subscriptions: S[],
): S | null {
  if (audience.customerExternalIds.length && !audience.customerExternalIds.includes(customer.externalId)) return null;
  const matching = subscriptions.filter(
    (s) =>
      (AUDIENCE_STATUSES as readonly string[]).includes(s.status) &&
      (!audience.statuses.length || audience.statuses.includes(s.status)) && (!audience.planIds.length || audience.planIds.includes(s.planId)),
  );
  return matching.sort((a, b) => (a.id < b.id ? 1 : -1))[0] ?? null;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The token of a campaign link: HMAC-SHA256 of the link id under the service's campaign link key
 * (32 random bytes kept in service_secrets, nothing derived from ADMIN_TOKEN), in base62.
 * Re-deriving it gives back the same token on every re-get; the database keeps only its SHA-256
 * like every other link. A read key lists (link id, token) pairs, so the key must be one that no
 * offline search can reach: a random one, never an operator-chosen secret.
 */
export function campaignLinkToken(key: Buffer, linkId: string): string {
  let n = BigInt(`0x${createHmac("sha256", key).update(linkId).digest("hex")}`);
  let out = "";
  while (out.length < 40) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return `pl_${out}`;
}

export interface CampaignLinkObject {
  token: string;
  url: string;
  priceCents: number;
  bonusCycles: number;
  bonusUnit: string;
  status: string;
  startsAt: Date | null;
  offerId: string;
  planId: string;
  productId: string;
}

export function campaignLinkObject(
  campaign: { offerId: string; priceCents: number; bonusCycles: number; bonusUnit: string; startsAt: Date | null },
  offer: { planId: string; plan: { productId: string } },
  link: { token: string; url: string; status: string },
): CampaignLinkObject {
  return {
    token: link.token,
    url: link.url,
    priceCents: campaign.priceCents,
    bonusCycles: campaign.bonusCycles,
    bonusUnit: campaign.bonusUnit,
    status: link.status.toLowerCase(),
    startsAt: campaign.startsAt,
    offerId: campaign.offerId,
    planId: offer.planId,
    productId: offer.plan.productId,
  };
}
