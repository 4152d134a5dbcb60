// Resolves the API key once per /v1 request (cached in core), for rate limits and idempotency.
// Only tenant keys reach /v1; the operator token is for GraphQL.
import type { RequestHandler } from "express";
import { authenticate } from "../../core/auth/authenticate.ts";
import type { KeyRecord } from "../../core/auth/key-cache.ts";
import { AppError } from "../../core/shared/errors.ts";
import type { Runtime } from "../../core/runtime.ts";

declare module "express-serve-static-core" {
  interface Request {
    caller?: KeyRecord;
  }
}

export function caller(runtime: Runtime): RequestHandler {
  return async (req, _res, next) => {
    const auth = await authenticate(runtime, req.get("authorization"));
    if (auth.kind !== "tenant") throw new AppError("unauthorized", { error: "use a tenant API key (bk_…) on /v1" });
    req.caller = auth;
    next();
  };
}
