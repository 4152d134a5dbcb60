-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "delivered_at" TIMESTAMP(3),
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "series_start" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "scheduled_at" TIMESTAMP(3) NOT NULL;

-- CreateIndex
CREATE INDEX "webhook_deliveries_tenant_id_event_id_idx" ON "webhook_deliveries"("tenant_id", "event_id");


-- Hand-written (Prisma has no partial indexes or triggers): the dispatcher's claim scans only
-- pending rows, in due order.
CREATE INDEX "webhook_deliveries_pending_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'PENDING';

-- A delivery row becoming due wakes every dispatcher right after commit (NOTIFY is transactional),
-- so the first attempt does not wait for the next poll.
CREATE FUNCTION "billing_webhooks_notify"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM pg_notify('billing_webhooks_due', '');
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER "webhook_deliveries_notify" AFTER INSERT ON "webhook_deliveries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "billing_webhooks_notify"();
