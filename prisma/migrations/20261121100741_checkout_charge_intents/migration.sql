-- CreateTable
CREATE TABLE "checkout_charge_intents" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "gateway_account_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "voiding_at" TIMESTAMP(3),

    CONSTRAINT "checkout_charge_intents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkout_charge_intents_idempotency_key_key" ON "checkout_charge_intents"("idempotency_key");

-- CreateIndex
CREATE INDEX "checkout_charge_intents_created_at_idx" ON "checkout_charge_intents"("created_at");

