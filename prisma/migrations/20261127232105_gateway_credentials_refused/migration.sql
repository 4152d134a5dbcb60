-- AlterTable
ALTER TABLE "gateway_accounts" ADD COLUMN     "credentials_refused_at" TIMESTAMP(3);

