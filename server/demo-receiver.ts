// POST /demo/webhooks: the demo tenant's webhook endpoint, so `npm start` shows events flowing.
// Raw body on purpose: a signature is checked over the bytes as received, never a re-serialization.
// Unauthenticated by nature, so it is kept small: without a demo tenant it is
// the 404 of any unknown route; bodies are capped (413); an address gets a few refused posts a
// minute (429; verified deliveries never count); and a forged post costs no database query (the
// demo tenant's secrets are cached, see demoReceiverKeys).
import express, { Router, type RequestHandler } from "express";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import { DEMO_RECEIVER_PATH, demoReceiverKeys, receiveDemoWebhook, type DemoReceiverKeys } from "../core/demo/receive-demo-webhook.ts";
import type { Runtime } from "../core/runtime.ts";
import { AppError } from "../core/shared/errors.ts";

/** Event envelopes are a few kB; 64 kB leaves room for large tracking objects. */
const BODY_LIMIT = "64kb";
/** Refused posts (bad signature, not JSON, too large) per client address per minute. */
const REFUSED_PER_MINUTE = 30;

export function demoReceiverRouter(runtime: Runtime, opts: { storeFor?: (prefix: string) => Store } = {}): Router {
  const router = Router();
  const onlyWithDemoTenant: RequestHandler = async (_req, res, next) => {
    const keys = await demoReceiverKeys(runtime.db.prisma, runtime.wallClock.now().getTime());
    if (!keys) return next("router"); // on to the app's 404, like any unknown route
    res.locals.demoKeys = keys;
    next();
  };
  const refusedPosts = rateLimit({
    windowMs: 60_000,
    limit: REFUSED_PER_MINUTE,
    skipSuccessfulRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.socket.remoteAddress ?? "unknown"),
    standardHeaders: "draft-6",
    legacyHeaders: false,
    ...(opts.storeFor ? { store: opts.storeFor("rl:demo-receiver:") } : {}),
    handler: (_req, res) => {
      const e = new AppError("rate_limited");
      res.status(e.status).json(e.body);
    },
  });
  router.post(DEMO_RECEIVER_PATH, onlyWithDemoTenant, refusedPosts, express.raw({ type: () => true, limit: BODY_LIMIT }), (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
    const keys = res.locals.demoKeys as DemoReceiverKeys;
    const receipt = receiveDemoWebhook(keys, raw, req.get("x-billing-signature"), runtime.wallClock.now().getTime());
    if (!receipt.verified) {
      runtime.logger.warn({ reason: receipt.reason }, "demo receiver: rejected a delivery");
      res.status(400).json({ error: receipt.reason });
      return;
    }
    runtime.logger.info({ event_id: receipt.eventId, type: receipt.type, tenant_id: receipt.tenantId }, `demo receiver: ${receipt.type} verified`);
    res.status(204).end();
  });
  return router;
}
