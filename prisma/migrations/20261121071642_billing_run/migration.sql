-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "billing_lease_until" TIMESTAMP(3),
ADD COLUMN     "referral_code" TEXT;

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "discount_cents" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "sandbox_charges" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "gateway_account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "token" TEXT,
    "amount_cents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "detail_code" TEXT NOT NULL DEFAULT '',
    "copy_paste" TEXT,
    "expires_at" TIMESTAMP(3),
    "chargeback_at" TIMESTAMP(3),
    "charged_back_at" TIMESTAMP(3),
    "refunded_cents" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_charges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sandbox_charges_copy_paste_idx" ON "sandbox_charges"("copy_paste");

-- CreateIndex
CREATE INDEX "sandbox_charges_tenant_id_chargeback_at_idx" ON "sandbox_charges"("tenant_id", "chargeback_at");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_charges_tenant_id_idempotency_key_key" ON "sandbox_charges"("tenant_id", "idempotency_key");

