-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "deleted_at" TIMESTAMP(3),
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '';

