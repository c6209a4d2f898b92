-- AlterTable
ALTER TABLE "IdempotencyKey" ALTER COLUMN "responseBody" SET DATA TYPE TEXT;
