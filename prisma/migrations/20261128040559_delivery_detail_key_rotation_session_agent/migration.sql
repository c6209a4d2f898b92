-- The tables Prisma keeps (prisma/schema.prisma)
-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "userAgent" TEXT;

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "replacedById" TEXT;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "redeliveryOf" TEXT,
ADD COLUMN     "requestHeaders" JSONB,
ADD COLUMN     "responseHeaders" JSONB;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_replacedById_fkey" FOREIGN KEY ("replacedById") REFERENCES "ApiKey"("id") ON DELETE SET NULL ON UPDATE CASCADE;

