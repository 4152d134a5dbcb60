-- The outcome write probes deliveries by tenant, status and id; with the id in the key, that probe is
-- one row whichever index the planner picks (the old (tenant_id, status) one scanned every pending
-- delivery of the tenant when stale statistics chose it: 4,274 rows per outcome in the webhooks bench).
-- DropIndex
DROP INDEX "webhook_deliveries_tenant_id_status_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_tenant_id_status_id_idx" ON "webhook_deliveries"("tenant_id", "status", "id");

