// POST /gateways/{gateway_account_id}/webhooks: a payment provider's notices (Stripe's events). The
// signature is over the bytes as received, so the body is read raw here (never JSON-parsed first),
// capped at 256 kB. Verification, dedupe and effects: core/gateways/apply-gateway-notification.ts.
// Unauthenticated by nature, so refusals are budgeted per client address, as the failed-authentication
// limit and the demo receiver do (express-rate-limit): every refused post (400 forged, stale or replayed,
// 404 unknown account, 413 too large) counts, and past 30 in a minute the address's refusals are 429. A
// notice that verifies is never counted nor limited: the budget is spent only after the refusal is decided.
import express, { Router, type ErrorRequestHandler } from "express";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import { applyGatewayNotification } from "../core/gateways/apply-gateway-notification.ts";
import type { Runtime } from "../core/runtime.ts";
import { AppError } from "../core/shared/errors.ts";
import { toHttp } from "./error-map.ts";

const PATH = "/gateways/:gatewayAccountId/webhooks";
const BODY_LIMIT = "256kb";
/** Refused notices per client address per minute before they are answered 429. */
export const REFUSED_NOTICES_PER_MINUTE = 30;

export function gatewayWebhooksRouter(runtime: Runtime, opts: { storeFor?: (prefix: string) => Store } = {}): Router {
  const router = Router();
  const refusals = rateLimit({
    windowMs: 60_000,
    limit: REFUSED_NOTICES_PER_MINUTE,
    // The socket's address (trust proxy is off): behind a reverse proxy every sender shares the proxy's.
    keyGenerator: (req) => ipKeyGenerator(req.socket.remoteAddress ?? "unknown"),
    standardHeaders: "draft-6",
    legacyHeaders: false,
    ...(opts.storeFor ? { store: opts.storeFor("rl:gateway-webhooks:") } : {}),
    handler: (_req, res) => {
      const e = new AppError("rate_limited");
      res.status(e.status).json(e.body);
    },
  });
  router.post(PATH, express.raw({ type: () => true, limit: BODY_LIMIT }), async (req, res, next) => {
    try {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      // The query string as sent, first value of each name (Mercado Pago signs the data.id it puts there).
      const query: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(req.originalUrl.split("?")[1] ?? "")) query[name] ??= value;
      const applied = await applyGatewayNotification(runtime, { gatewayAccountId: req.params.gatewayAccountId!, rawBody, headers: req.headers, query });
      res.status(200).json({ received: true, event_id: applied.eventId, result: applied.result });
    } catch (err) {
      next(err);
    }
  });
  // A refusal (4xx) spends the address's budget, then goes on to the app's error handler; over budget it is a 429.
  const countRefusal: ErrorRequestHandler = (err, req, res, next) => {
    if (toHttp(err).status >= 500) return next(err);
    void refusals(req, res, () => next(err));
  };
  router.use(PATH, countRefusal);
  return router;
}
