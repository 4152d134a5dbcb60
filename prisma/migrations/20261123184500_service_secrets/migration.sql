-- Service-wide random secrets (issue 16, finding 2): the campaign link signing key was derived from
-- ADMIN_TOKEN. The rows are made by the service at start (core/shared/service-secrets.ts).
-- CreateTable
CREATE TABLE "service_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_secrets_pkey" PRIMARY KEY ("name"),
    CONSTRAINT "service_secrets_value_hex" CHECK ("value" ~ '^([0-9a-f]{2}){32,}$')
);
