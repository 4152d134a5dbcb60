// Renewal-campaign bodies of /v1 from typed selections: a customer's link and the page of links.
export interface CampaignLinkSelection {
  token: string;
  url: string;
  priceCents: number;
  bonusCycles: number;
  bonusUnit: string;
  status: string;
  startsAt: string | null;
  offerId: string;
  planId: string;
  productId: string;
}

export const toCampaignLink = (l: CampaignLinkSelection) => ({
  token: l.token,
  url: l.url,
  price_cents: l.priceCents,
  bonus_cycles: l.bonusCycles,
  bonus_unit: l.bonusUnit,
  status: l.status,
  starts_at: l.startsAt,
  offer_id: l.offerId,
  plan_id: l.planId,
  product_id: l.productId,
});

export const toCampaignLinksElement = (e: { link: CampaignLinkSelection; externalId: string; createdAt: string }) => ({
  ...toCampaignLink(e.link),
  external_id: e.externalId,
  created_at: e.createdAt,
});
