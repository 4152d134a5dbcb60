// Subscription write routes: charge-now, payment-method-link, renewal-link.
import { Router, type Request } from "express";
import type { CoreClient } from "../../graphql-client.ts";

export function chargeAndLinkRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  void core;
  void headers;
  return r;
}
