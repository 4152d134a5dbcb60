// POST /gateways/{gateway_account_id}/webhooks: a payment provider's notices. The
// signature is over the bytes as received, so the body is read raw here (never JSON-parsed first),
// capped at 256 kB. Verification, dedupe and effects: core/billing/apply-gateway-notification.ts.
// Unauthenticated by nature, so refusals are budgeted per client address, as the failed-authentication
// limit and the demo receiver do (express-rate-limit): every refused post (400 forged, stale or malformed,
// 404 unknown account, 413 too large) counts; a verified redelivery is a 200 "duplicate", never a refusal. The limit is decided first: an address that spent its 30
// refusals of the minute is answered 429 before its notice is read, looked up or verified (a genuine one
// from it waits for the provider's retry). A notice that verifies never spends the budget: only a refusal
// is counted, once decided.
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler } from "express";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import { applyGatewayNotification } from "../core/billing/apply-gateway-notification.ts";
import type { Runtime } from "../core/runtime.ts";
import { AppError } from "../core/shared/errors.ts";
import { toHttp } from "../http/error-map.ts";

const PATH = "/gateways/:gatewayAccountId/webhooks";
const BODY_LIMIT = "256kb";
/** Refused notices per client address per minute before they are answered 429. */
export const REFUSED_NOTICES_PER_MINUTE = 30;

const WINDOW_MS = 60_000;

// The socket's address (trust proxy is off): behind a reverse proxy every sender shares the proxy's.
const addressOf = (req: Request) => ipKeyGenerator(req.socket.remoteAddress ?? "unknown");

export function gatewayWebhooksRouter(runtime: Runtime, opts: { storeFor?: (prefix: string) => Store } = {}): Router {
  const router = Router();
  const refusals = rateLimit({
    windowMs: WINDOW_MS,
    limit: REFUSED_NOTICES_PER_MINUTE,
    keyGenerator: addressOf,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    ...(opts.storeFor ? { store: opts.storeFor("rl:gateway-webhooks:") } : {}),
    handler: (_req, res) => {
      const e = new AppError("rate_limited");
      res.status(e.status).json(e.body);
    },
  });
  // Reads the address's count without adding to it: a notice let through may yet verify.
  const overBudget: RequestHandler = async (req, res, next) => {
    try {
      const spent = await refusals.getKey(addressOf(req));
      if (!spent || spent.totalHits < REFUSED_NOTICES_PER_MINUTE) return next();
      const resetSeconds = Math.max(1, Math.ceil(((spent.resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
      // The limiter's own answer: its draft-6 headers and Retry-After.
      res.set({
        "RateLimit-Policy": `${REFUSED_NOTICES_PER_MINUTE};w=${WINDOW_MS / 1000}`,
        "RateLimit-Limit": String(REFUSED_NOTICES_PER_MINUTE),
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": String(resetSeconds),
        "Retry-After": String(resetSeconds),
      });
      const e = new AppError("rate_limited");
      res.status(e.status).json(e.body);
    } catch (err) {
      next(err);
    }
  };
  // A refusal (4xx) spends the address's budget, then goes on to the app's error handler. It is
  // on the route itself (not a path-mounted middleware, which would leave the raw path in req.baseUrl).
  const countRefusal: ErrorRequestHandler = (err, req, res, next) => {
    if (toHttp(err).status >= 500) return next(err);
    void refusals(req, res, () => next(err));
  };
  const receive: RequestHandler<{ gatewayAccountId: string }> = async (req, res, next) => {
    try {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      // The query string as sent, first value of each name (Mercado Pago signs the data.id it puts there).
      const query: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(req.originalUrl.split("?")[1] ?? "")) query[name] ??= value;
      const applied = await applyGatewayNotification(runtime, { gatewayAccountId: req.params.gatewayAccountId, rawBody, headers: req.headers, query });
      res.status(200).json({ received: true, event_id: applied.eventId, result: applied.result });
    } catch (err) {
      next(err);
    }
  };
  router.post(PATH, overBudget, express.raw({ type: () => true, limit: BODY_LIMIT }), receive, countRefusal);
  return router;
}
