// Renewal-campaign routes: a customer's link (scope write, get-or-create) and the links generated.
import { Router, type Request } from "express";
import type { CoreClient } from "../../graphql-client.ts";
import { loadOperation } from "../../operations.ts";
import { pageArgs, queryString, toPage, type Connection } from "../../params.ts";

const getCampaignLink = loadOperation("get-campaign-link");
const listCampaignLinks = loadOperation("list-campaign-links");

type Json = Record<string, unknown>;
type Conn = Connection<Json>;

export function renewalCampaignRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();

  r.get("/renewal-campaigns/:id/link", async (req, res) => {
    const data = await core.request<{ getCampaignLink: { payload: Json } }>(
      getCampaignLink,
      { campaignId: req.params.id, externalId: queryString(req, "external_id", "missing_customer_key") },
      headers(req),
    );
    res.json(data.getCampaignLink.payload);
  });

  r.get("/renewal-campaigns/:id/links", async (req, res) => {
    const data = await core.request<{ campaignLinks: Conn }>(listCampaignLinks, { campaignId: req.params.id, ...pageArgs(req) }, headers(req));
    res.json(toPage(data.campaignLinks, (n) => n.payload));
  });

  return r;
}
