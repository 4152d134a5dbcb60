-- Inbound gateway webhooks (issue 18): each provider notice is recorded once per account and event id,
-- in the same transaction as its effect, so a replayed notice changes nothing. No secret, no card data:
-- the summary holds the provider's event type, object ids, amount and codes only.
-- CreateTable
CREATE TABLE "gateway_notifications" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "gateway_account_id" TEXT NOT NULL,
    "provider_event_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "summary" JSONB NOT NULL DEFAULT '{}',
    "received_at" TIMESTAMP(3) NOT NULL,
    "applied_at" TIMESTAMP(3),

    CONSTRAINT "gateway_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "gateway_notifications_gateway_account_id_provider_event_id_key" ON "gateway_notifications"("gateway_account_id", "provider_event_id");

-- CreateIndex
CREATE INDEX "gateway_notifications_tenant_id_received_at_idx" ON "gateway_notifications"("tenant_id", "received_at");
