// POST /gateways/{gateway_account_id}/webhooks: a payment provider's notices (Stripe's events). The
// signature is over the bytes as received, so the body is read raw here (never JSON-parsed first),
// capped at 256 kB. Verification, dedupe and effects: core/gateways/apply-gateway-notification.ts.
import express, { Router } from "express";
import { applyGatewayNotification } from "../core/gateways/apply-gateway-notification.ts";
import type { Runtime } from "../core/runtime.ts";

const BODY_LIMIT = "256kb";

export function gatewayWebhooksRouter(runtime: Runtime): Router {
  const router = Router();
  router.post("/gateways/:gatewayAccountId/webhooks", express.raw({ type: () => true, limit: BODY_LIMIT }), async (req, res, next) => {
    try {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const applied = await applyGatewayNotification(runtime, { gatewayAccountId: req.params.gatewayAccountId!, rawBody, headers: req.headers });
      res.status(200).json({ received: true, event_id: applied.eventId, result: applied.result });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
