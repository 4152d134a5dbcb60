// Subscription write routes: change-plan, cancel-plan-change.
import { Router, type Request } from "express";
import type { CoreClient } from "../../graphql-client.ts";

export function planChangeRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  void core;
  void headers;
  return r;
}
