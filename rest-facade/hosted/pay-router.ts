// Hosted /pay/{token}: one page for every link kind (service-contract §3).
import { Router } from "express";
import type { Runtime } from "../../core/runtime.ts";

export function payRouter(runtime: Runtime): Router {
  const r = Router();
  void runtime;
  return r;
}
