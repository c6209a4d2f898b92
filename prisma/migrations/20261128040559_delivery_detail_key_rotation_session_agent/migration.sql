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

-- By hand: a failed attempt whose retry has run, or whose event later got through to
-- the webhook, has no retry pending any more (src/jobs/attempts.ts clears it from now on).
UPDATE "WebhookDelivery" d SET "nextAttemptAt" = NULL
WHERE d."nextAttemptAt" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "WebhookDelivery" later
  WHERE later."webhookId" = d."webhookId" AND later."eventId" = d."eventId" AND later.id <> d.id
    AND ((d.trigger = 'event' AND later.trigger = 'event' AND later.attempt = d.attempt + 1)
      OR (later.status = 'succeeded' AND later."createdAt" >= d."createdAt")));
