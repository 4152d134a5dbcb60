-- What the gateway says a payment took, once settled approved: a Pix paid short or over is recorded as
-- received, refunded from that amount, and never settles an invoice or order it does not cover. Null on rows
-- settled before (and on attempts not settled approved): read as amount_cents.
-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "amount_received_cents" INTEGER;
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_received_positive" CHECK ("amount_received_cents" IS NULL OR "amount_received_cents" > 0);
