-- Issue 16 #4: an Idempotency-Key answer is replayed only to the API key that made it. Each API key
-- has its own namespace of Idempotency-Keys (another key of the tenant, read or write, never sees it).
-- AlterTable
ALTER TABLE "idempotency_keys" ADD COLUMN "api_key_id" TEXT;

-- Rows written before this migration name no API key. Only a write key's POST could run, so a
-- tenant's rows go to its write key when it has exactly one; stored 403s (a read key's scope refusal,
-- a lock since lifted) are not answers to keep; rows of tenants with several write keys cannot be
-- attributed and are dropped, so a retry of theirs runs again (as after the 24 h window).
UPDATE "idempotency_keys" AS i SET "api_key_id" = k."id"
  FROM "api_keys" AS k
 WHERE k."tenant_id" = i."tenant_id" AND k."scope" = 'WRITE'
   AND (SELECT count(*) FROM "api_keys" AS w WHERE w."tenant_id" = i."tenant_id" AND w."scope" = 'WRITE') = 1
   AND (i."response_status" IS NULL OR i."response_status" <> 403);
DELETE FROM "idempotency_keys" WHERE "api_key_id" IS NULL;
ALTER TABLE "idempotency_keys" ALTER COLUMN "api_key_id" SET NOT NULL;

-- DropIndex
DROP INDEX "idempotency_keys_tenant_id_key_key";

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_keys_api_key_id_key_key" ON "idempotency_keys"("api_key_id", "key");
