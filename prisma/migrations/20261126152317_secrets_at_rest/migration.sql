-- Idempotency-Keys stored until now hold their answers in clear (API key, OAuth client and
-- webhook secrets among them) under an unkeyed hash of the request, and belong to no
-- credential: they are dropped. A retry across the upgrade runs again, as a new request.
DELETE FROM "IdempotencyKey";

-- AlterTable
ALTER TABLE "IdempotencyKey" DROP CONSTRAINT "IdempotencyKey_pkey",
DROP COLUMN "responseBody",
ADD COLUMN     "credential" TEXT NOT NULL,
ADD COLUMN     "responseSealed" TEXT,
ADD CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("organizationId", "credential", "key");

-- AlterTable
ALTER TABLE "Webhook" ADD COLUMN     "previousSecretEncrypted" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMPTZ(3);
