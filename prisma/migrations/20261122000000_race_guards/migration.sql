-- Hand-written (Prisma has no partial indexes or CHECK constraints): the concurrency drill's invariants,
-- held by the database whatever the code does.
-- One plan change charged at a time: at most one open proration invoice per subscription.
CREATE UNIQUE INDEX "invoices_one_open_proration" ON "invoices"("subscription_id") WHERE "kind" = 'PRORATION' AND "status" = 'OPEN';
-- paid_invoice_id / paid_order_id (unique: one successful charge each) are set only on money that was taken.
ALTER TABLE "payments" ADD CONSTRAINT "payments_paid_link_only_when_paid"
  CHECK (("paid_invoice_id" IS NULL AND "paid_order_id" IS NULL) OR "status" IN ('PAID', 'REFUNDED', 'CHARGEDBACK'));
-- A canceled subscription is never billed again and says when it ended.
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_canceled_is_final"
  CHECK ("status" <> 'CANCELED' OR ("next_billing_at" IS NULL AND "canceled_at" IS NOT NULL));
