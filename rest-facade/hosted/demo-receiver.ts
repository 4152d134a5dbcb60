// POST /demo/webhooks: the demo tenant's webhook endpoint, so `npm start` shows events flowing.
// Raw body on purpose: a signature is checked over the bytes as received, never a re-serialization.
import express, { Router } from "express";
import { DEMO_RECEIVER_PATH, receiveDemoWebhook } from "../../core/demo/receive-demo-webhook.ts";
import type { Runtime } from "../../core/runtime.ts";

export function demoReceiverRouter(runtime: Runtime): Router {
  const router = Router();
  router.post(DEMO_RECEIVER_PATH, express.raw({ type: () => true, limit: "1mb" }), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
    const receipt = await receiveDemoWebhook(runtime.db.prisma, raw, req.get("x-billing-signature"), runtime.wallClock.now().getTime());
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
