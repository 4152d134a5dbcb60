-- DropIndex
DROP INDEX "email_messages_tenant_id_idx";

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "contact_emails" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "customer_emails_off" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "email_reply_to" TEXT,
ADD COLUMN     "email_sender_name" TEXT;

-- AlterTable
ALTER TABLE "email_messages" ADD COLUMN     "event_id" TEXT,
ADD COLUMN     "from_name" TEXT,
ADD COLUMN     "params" JSONB,
ADD COLUMN     "reply_to" TEXT,
ADD COLUMN     "source_key" TEXT,
ALTER COLUMN "body" DROP NOT NULL;

-- Rows queued before templates had sources: each is its own source.
UPDATE "email_messages" SET "source_key" = "id" WHERE "source_key" IS NULL;
ALTER TABLE "email_messages" ALTER COLUMN "source_key" SET NOT NULL;

-- CreateIndex
CREATE INDEX "email_messages_tenant_id_created_at_idx" ON "email_messages"("tenant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "email_messages_tenant_id_kind_source_key_key" ON "email_messages"("tenant_id", "kind", "source_key");

