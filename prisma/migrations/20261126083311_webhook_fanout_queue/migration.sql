-- CreateTable
CREATE TABLE "WebhookFanout" (
    "id" BIGSERIAL NOT NULL,
    "eventId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,

    CONSTRAINT "WebhookFanout_pkey" PRIMARY KEY ("id")
);

-- The fan-out trigger now queues its deliveries here instead of calling add_job, whose
-- NOTIFY serialised the commits of every creating transaction (README, Performance).
-- The worker dispatcher moves them to graphile-worker in batches, one NOTIFY per batch.
CREATE OR REPLACE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS U&'
BEGIN
  INSERT INTO "WebhookFanout" ("eventId", "webhookId")
  SELECT NEW.id, w.id
  FROM "Webhook" w
  WHERE w."organizationId" = NEW."organizationId" AND w."status" = ''enabled'' AND w."events" @> ARRAY[NEW.type]\003B
  RETURN NULL\003B
END
';
