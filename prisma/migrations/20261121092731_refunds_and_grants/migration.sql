-- AlterTable (idempotency_key is backfilled for the surplus refunds written before this migration)
ALTER TABLE "refunds" ADD COLUMN     "failure_code" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3);
UPDATE "refunds" SET "idempotency_key" = "payment_id" || ':surplus' WHERE "idempotency_key" IS NULL;
ALTER TABLE "refunds" ALTER COLUMN "idempotency_key" SET NOT NULL;

-- AlterTable: prepaid runway is read from the invoice's period (it starts after the refund instant),
-- never stored, so it cannot drift.
ALTER TABLE "invoices" DROP COLUMN "funds_runway";

-- AlterTable
ALTER TABLE "grants" ADD COLUMN     "quantity" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "refunds_idempotency_key_key" ON "refunds"("idempotency_key");

-- CreateIndex
CREATE INDEX "refunds_status_lease_until_idx" ON "refunds"("status", "lease_until");


-- Hand-written (Prisma has no partial indexes or CHECK constraints): the database itself refuses a
-- second refund in flight on one payment, and more money back than was paid, whatever the code does.
CREATE UNIQUE INDEX "refunds_one_pending_per_payment" ON "refunds"("payment_id") WHERE "status" = 'PENDING';
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount"
  CHECK ("refunded_amount_cents" >= 0 AND "refunded_amount_cents" <= "amount_cents");
ALTER TABLE "payment_items" ADD CONSTRAINT "payment_items_refunded_within_amount"
  CHECK ("refunded_amount_cents" >= 0 AND "refunded_amount_cents" <= "amount_cents");
