-- CreateTable
CREATE TABLE "Webhook" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT,
    "secretEncrypted" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "disabledReason" TEXT,
    "disabledAt" TIMESTAMPTZ(3),
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusCode" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "responseExcerpt" TEXT,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Webhook_organizationId_createdAt_id_idx" ON "Webhook"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_organizationId_webhookId_createdAt_id_idx" ON "WebhookDelivery"("organizationId", "webhookId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookId_eventId_idx" ON "WebhookDelivery"("webhookId", "eventId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The fan-out: every event row adds one deliver_webhook job per enabled webhook of its
-- organization that subscribes to its type, in the transaction that writes the event.
-- A trigger, so that it holds however the change and its event are written.
-- With no subscriber it costs one probe of the partial index below.
CREATE INDEX "Webhook_enabled_organizationId_idx" ON "Webhook" ("organizationId") WHERE "status" = 'enabled';

-- The WebAssembly migration path of Prisma (executeScript of the pg adapter) splits a script
-- at every semicolon, even inside a dollar-quoted or quoted function body. So the body
-- is a U& string literal, with the escape 003B standing for each semicolon and its
-- quotes doubled. PostgreSQL reads it as the same plpgsql text, and native prisma
-- migrate deploy applies it unchanged. A trigger function cannot be LANGUAGE sql.
CREATE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS U&'
BEGIN
  PERFORM graphile_worker.add_job(
    ''deliver_webhook'',
    json_build_object(''eventId'', NEW.id, ''webhookId'', w.id),
    max_attempts => 5
  )
  FROM "Webhook" w
  WHERE w."organizationId" = NEW."organizationId" AND w."status" = ''enabled'' AND w."events" @> ARRAY[NEW.type]\003B
  RETURN NULL\003B
END
';

CREATE TRIGGER "Event_webhook_fan_out" AFTER INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION webhook_fan_out();

-- The webhooks list total, kept by the kit count triggers (see 20261126064456_record_counts_and_search)
SELECT kit_count_rows('Webhook');
