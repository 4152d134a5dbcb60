// The /v1 router: auth, rate limits, scope and read-only checks, body parsing and idempotency, then
// the routes, then a 404. Every refusal about who the caller is comes before any Idempotency-Key replay.
import { Router, type Request } from "express";
import type { Store } from "express-rate-limit";
import { AppError } from "../core/shared/errors.ts";
import type { Runtime } from "../core/runtime.ts";
import type { CoreClient } from "./graphql-client.ts";
import { bodyParsing } from "./middleware/body.ts";
import { caller } from "./middleware/caller.ts";
import { idempotency } from "./middleware/idempotency.ts";
import { rateLimits } from "./middleware/rate-limit.ts";
import { writeAccess } from "./middleware/write-access.ts";
import { customerRoutes } from "./routes/v1/customers.ts";
import { readRoutes } from "./routes/v1/reads.ts";
import { chargeAndLinkRoutes } from "./routes/v1/charge-and-links.ts";
import { planChangeRoutes } from "./routes/v1/plan-changes.ts";
import { subscriptionLifecycleRoutes } from "./routes/v1/subscription-lifecycle.ts";
import { paymentAndOrderRoutes } from "./routes/v1/payments-and-orders.ts";
import { renewalCampaignRoutes } from "./routes/v1/renewal-campaigns.ts";

/** What the core needs to know about the HTTP caller. */
function forwardHeaders(req: Request): Record<string, string> {
  return { authorization: req.get("authorization") ?? "", "x-request-id": String(req.id ?? "") };
}

export function v1Router(runtime: Runtime, core: CoreClient, opts: { storeFor?: (prefix: string) => Store } = {}): Router {
  const r = Router();
  r.use(caller(runtime));
  r.use(rateLimits(opts));
  r.use(writeAccess());
  r.use(bodyParsing());
  r.use(idempotency(runtime));
  r.use(readRoutes(core, forwardHeaders));
  r.use(customerRoutes(core, forwardHeaders));
  r.use(subscriptionLifecycleRoutes(core, forwardHeaders));
  r.use(planChangeRoutes(core, forwardHeaders));
  r.use(chargeAndLinkRoutes(core, forwardHeaders));
  r.use(paymentAndOrderRoutes(core, forwardHeaders));
  r.use(renewalCampaignRoutes(core, forwardHeaders));
  r.use(() => {
    throw new AppError("route_not_found");
  });
  return r;
}
