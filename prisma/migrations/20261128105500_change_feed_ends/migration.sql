-- The change feed's ends (docs/decisions.md, "Change feed: the ends").
-- An export records the feed's cursor of the snapshot it read, to follow the feed from.
ALTER TABLE "Export" ADD COLUMN "changesCursor" TEXT;

-- The trigger no longer copies the events the feed never serves: those of the system resources
-- (organization, users, API keys, webhooks and their test deliveries, OAuth apps, exports, imports),
-- raised by hand-written services, never a declared resource's (src/events/system-events.ts). A deny
-- list, not the served types: a resource declared later is fed with no migration, and a system event
-- added later without a line here costs a row the feed filters out on read (test/changes-ends.test.ts,
-- "leaves no Change row", fails until it is added). Rows copied before stay until pruned.
CREATE OR REPLACE FUNCTION change_from_event() RETURNS trigger LANGUAGE plpgsql AS U&'
BEGIN
  IF (NEW.data -> ''object'' ->> ''id'') IS NULL
     OR split_part(NEW.type, ''.'', 1) IN (''organization'', ''user'', ''api_key'', ''webhook'', ''oauth_app'', ''export'', ''import'') THEN
    RETURN NULL\003B
  END IF\003B
  INSERT INTO "Change" ("organizationId", "eventId", type, "recordId", data, "actorType", "actorId", "createdAt")
  VALUES (NEW."organizationId", NEW.id, NEW.type, NEW.data -> ''object'' ->> ''id'', NEW.data, NEW."actorType", NEW."actorId", NEW."createdAt")\003B
  RETURN NULL\003B
END
';
