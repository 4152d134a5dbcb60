// Renewal-campaign routes: a customer's link (scope write, get-or-create) and the links generated.
import { Router, type Request } from "express";
import type { CoreClient } from "../../core-client.ts";
import { loadOperation } from "../../operations.ts";
import { pageArgs, queryString, toPage, type Connection } from "../../params.ts";
import { toCampaignLink, toCampaignLinksElement, type CampaignLinkSelection } from "../../serializers/campaign.ts";

const getCampaignLink = loadOperation("get-campaign-link");
const listCampaignLinks = loadOperation("list-campaign-links");


export function renewalCampaignRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();

  r.get("/renewal-campaigns/:id/link", async (req, res) => {
    const data = await core.request<{ getCampaignLink: CampaignLinkSelection }>(
      getCampaignLink,
      { campaignId: req.params.id, externalId: queryString(req, "external_id", "missing_customer_key") },
      headers(req),
    );
    res.json(toCampaignLink(data.getCampaignLink));
  });

  r.get("/renewal-campaigns/:id/links", async (req, res) => {
    const data = await core.request<{ campaignLinks: Connection<Parameters<typeof toCampaignLinksElement>[0]> }>(listCampaignLinks, { campaignId: req.params.id, ...pageArgs(req) }, headers(req));
    res.json(toPage(data.campaignLinks, toCampaignLinksElement));
  });

  return r;
}
