-- Gateway accounts with credentials encrypted at rest (issue 18). The credentials are one AES-256-GCM
-- ciphertext "v1.<keyId>.<iv>.<tag>.<data>" (core/gateways/credentials-vault.ts); the CHECK keeps any
-- clear value out of the column. credential_hints holds masked hints only (sk_live_...4242).
-- AlterTable
ALTER TABLE "gateway_accounts"
    ADD COLUMN "credentials_ciphertext" TEXT,
    ADD COLUMN "credential_hints" JSONB NOT NULL DEFAULT '{}',
    ADD COLUMN "credentials_updated_at" TIMESTAMP(3),
    ADD COLUMN "api_base_url" TEXT,
    ADD COLUMN "is_default" BOOLEAN NOT NULL DEFAULT false,
    ADD CONSTRAINT "gateway_accounts_credentials_sealed"
        CHECK ("credentials_ciphertext" IS NULL OR "credentials_ciphertext" ~ '^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$');

-- A provider name in createOffer's `gateway` resolved to the account named after it: that account is
-- the provider's default from now on.
UPDATE "gateway_accounts" SET "is_default" = true WHERE "name" = "provider";

-- At most one default account per tenant and provider (Prisma cannot express a partial index).
CREATE UNIQUE INDEX "gateway_accounts_one_default_per_provider" ON "gateway_accounts"("tenant_id", "provider") WHERE "is_default";
