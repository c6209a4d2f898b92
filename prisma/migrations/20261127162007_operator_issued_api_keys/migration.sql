-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "operatorIssued" BOOLEAN NOT NULL DEFAULT false;

-- Issue 23: a key made with a client_credentials token had no creator, like an
-- operator's. No record tells the two apart (docs/decisions.md, API keys), so every
-- live key without a creator is taken for an operator's and keeps working, and
-- operators review them (cli api-key list: CREATOR "operator"). Revoked ones stay
-- unmarked: among them are the keys of deleted users, never an operator's.
UPDATE "ApiKey" SET "operatorIssued" = true WHERE "createdByUserId" IS NULL AND "revokedAt" IS NULL;
