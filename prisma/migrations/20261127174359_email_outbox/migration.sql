-- CreateEnum
CREATE TYPE "EmailStatus" AS ENUM ('PENDING', 'SENT', 'FAILED');

-- AlterTable
ALTER TABLE "email_messages" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "html" TEXT,
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "last_error_category" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "message_id" TEXT,
ADD COLUMN     "next_attempt_at" TIMESTAMP(3),
ADD COLUMN     "sent_at" TIMESTAMP(3),
ADD COLUMN     "status" "EmailStatus" NOT NULL DEFAULT 'PENDING';

-- CreateIndex
CREATE UNIQUE INDEX "email_messages_message_id_key" ON "email_messages"("message_id");

-- CreateIndex
CREATE INDEX "email_messages_status_next_attempt_at_idx" ON "email_messages"("status", "next_attempt_at");


-- Rows recorded before anything sent e-mail: each gets its Message-ID, and is not sent now (a
-- customer would receive a long-stale message); they stay readable as FAILED with the reason.
UPDATE "email_messages" SET "message_id" = '<' || "id" || '@billing>', "status" = 'FAILED', "last_error" = 'recorded before e-mail was sent' WHERE "message_id" IS NULL;
