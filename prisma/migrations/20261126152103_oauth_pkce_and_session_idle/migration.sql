-- AlterTable
-- Sessions signed in before this migration start their idle window now.
ALTER TABLE "Session" ADD COLUMN     "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
-- Apps registered before this migration keep working as they did: confidential
-- ones without PKCE unless an admin turns it on, public ones always with it.
-- New apps require PKCE (RFC 9700 2.1.1): the column's default from here on.
ALTER TABLE "OAuthApp" ADD COLUMN     "requirePkce" BOOLEAN NOT NULL DEFAULT false;
UPDATE "OAuthApp" SET "requirePkce" = true WHERE "clientType" = 'public';
ALTER TABLE "OAuthApp" ALTER COLUMN "requirePkce" SET DEFAULT true;
