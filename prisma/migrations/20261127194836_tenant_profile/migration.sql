-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "address" TEXT,
ADD COLUMN     "cnpj" TEXT,
ADD COLUMN     "legal_name" TEXT,
ADD COLUMN     "privacy_url" TEXT,
ADD COLUMN     "support_email" TEXT,
ADD COLUMN     "support_phone" TEXT,
ADD COLUMN     "terms_url" TEXT;

