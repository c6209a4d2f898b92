-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "actorId" TEXT,
ADD COLUMN     "actorType" TEXT NOT NULL DEFAULT 'system';

-- An actor is one of the four kinds, and only system has no id. Existing rows are system's: who made them was not recorded.
ALTER TABLE "Event" ADD CONSTRAINT "Event_actor_check"
  CHECK ("actorType" IN ('user', 'api_key', 'oauth_app', 'system') AND ("actorType" = 'system') = ("actorId" IS NULL));
