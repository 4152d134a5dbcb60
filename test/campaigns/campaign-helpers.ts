// Renewal-campaign helpers: the operator's createRenewalCampaign and the customer's link over REST.
import { get, gql, op, type HttpResult } from "../helpers/http.ts";
import type { TestTenant } from "../helpers/tenant.ts";

export interface CampaignInput {
  offerId?: string;
  priceCents?: number;
  bonusCycles?: number;
  bonusUnit?: string;
  startsAt?: string | null;
  audience?: { statuses?: string[]; planIds?: string[]; customerExternalIds?: string[] } | null;
}

const CREATE = `mutation($t: ID!, $o: ID!, $p: Int!, $b: Int!, $u: String!, $s: DateTime, $a: RenewalCampaignAudience) {
  createRenewalCampaign(tenantId: $t, offerId: $o, priceCents: $p, bonusCycles: $b, bonusUnit: $u, startsAt: $s, audience: $a) {
    id offerId priceCents bonusCycles bonusUnit startsAt audience { statuses planIds customerExternalIds } active } }`;

function vars(t: TestTenant, c: CampaignInput) {
  return {
    t: t.tenantId,
    o: c.offerId ?? t.monthlyOfferId,
    p: c.priceCents ?? 3000,
    b: c.bonusCycles ?? 1,
    u: c.bonusUnit ?? "month",
    s: c.startsAt ?? null,
    a: c.audience ?? null,
  };
}

export async function createCampaign(t: TestTenant, c: CampaignInput = {}): Promise<string> {
  return (await op(CREATE, vars(t, c))).createRenewalCampaign.id;
}

/** createRenewalCampaign that may fail: the GraphQL errors' extensions. */
export async function tryCreateCampaign(t: TestTenant, c: CampaignInput = {}) {
  return gql(CREATE, vars(t, c));
}

export async function setCampaignActive(id: string, active: boolean) {
  return (await op(`mutation($id: ID!, $a: Boolean!) { setRenewalCampaignActive(id: $id, active: $a) { id active } }`, { id, a: active })).setRenewalCampaignActive;
}

export function campaignLink(t: TestTenant, campaignId: string, externalId: string | null, key = t.writeKey): Promise<HttpResult> {
  const qs = externalId === null ? "" : `?external_id=${encodeURIComponent(externalId)}`;
  return get(`/v1/renewal-campaigns/${campaignId}/link${qs}`, key);
}

export function campaignLinks(t: TestTenant, campaignId: string, qs = "", key = t.readKey): Promise<HttpResult> {
  return get(`/v1/renewal-campaigns/${campaignId}/links${qs}`, key);
}
