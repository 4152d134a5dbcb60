-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "created_by" TEXT,
ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "last_used_at" TIMESTAMP(3),
ADD COLUMN     "name" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "record_id" TEXT,
    "address" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_tenant_id_id_idx" ON "audit_entries"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "audit_entries_tenant_id_actor_label_id_idx" ON "audit_entries"("tenant_id", "actor_label", "id");

-- CreateIndex
CREATE INDEX "audit_entries_tenant_id_action_id_idx" ON "audit_entries"("tenant_id", "action", "id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "tenant_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

