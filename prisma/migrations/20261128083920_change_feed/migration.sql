-- The change feed (src/changes, docs/decisions.md "Change feed (issue 29, part 1)").
CREATE TABLE "Change" (
    "seq" BIGSERIAL NOT NULL,
    "position" BIGINT,
    "organizationId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "recordId" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Change_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "Change_position_key" ON "Change"("position");
CREATE INDEX "Change_organizationId_position_idx" ON "Change"("organizationId", "position");
CREATE INDEX "Change_createdAt_idx" ON "Change"("createdAt");
-- What the sequencer looks for: small, since rows leave it as soon as they are numbered.
CREATE INDEX "Change_unpositioned_idx" ON "Change"("seq") WHERE "position" IS NULL;
ALTER TABLE "Change" ADD CONSTRAINT "Change_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "ChangeHorizon" (
    "organizationId" TEXT NOT NULL,
    "prunedThrough" BIGINT NOT NULL,

    CONSTRAINT "ChangeHorizon_pkey" PRIMARY KEY ("organizationId")
);
ALTER TABLE "ChangeHorizon" ADD CONSTRAINT "ChangeHorizon_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Positions, given only by change_sequence() under its advisory lock.
CREATE SEQUENCE "Change_position_seq" AS BIGINT;

-- Every event about a record (data.object.id) becomes a change in the same transaction: one small
-- insert beside the event row. No NOTIFY here: it would serialise the commits of every writing
-- transaction (see the webhook fan-out migration), the sequencer NOTIFYs once per batch instead.
-- Function bodies are U& strings with \003B for semicolons: the migration runner splits on them.
CREATE FUNCTION change_from_event() RETURNS trigger LANGUAGE plpgsql AS U&'
BEGIN
  IF (NEW.data -> ''object'' ->> ''id'') IS NULL THEN
    RETURN NULL\003B
  END IF\003B
  INSERT INTO "Change" ("organizationId", "eventId", type, "recordId", data, "actorType", "actorId", "createdAt")
  VALUES (NEW."organizationId", NEW.id, NEW.type, NEW.data -> ''object'' ->> ''id'', NEW.data, NEW."actorType", NEW."actorId", NEW."createdAt")\003B
  RETURN NULL\003B
END
';
CREATE TRIGGER "Event_change" AFTER INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION change_from_event();

-- The sequencer: numbers the committed, unnumbered changes it can see, in insertion order, and
-- NOTIFYs `changes` when it numbered any (long polls wake). Serialized by a transaction-scoped
-- advisory lock and run as its own short transaction: a change that commits after it ran gets a
-- later position, so a reader of position > cursor skips nothing. The UPDATE after the lock takes
-- a fresh snapshot (READ COMMITTED: each statement of a volatile function takes one).
CREATE FUNCTION change_sequence() RETURNS bigint LANGUAGE plpgsql AS U&'
DECLARE numbered bigint\003B
BEGIN
  PERFORM pg_advisory_xact_lock(2029001)\003B
  WITH ordered AS (
    SELECT seq FROM "Change" WHERE position IS NULL ORDER BY seq LIMIT 50000
  ), numbering AS (
    SELECT seq, nextval(''"Change_position_seq"'') AS position FROM ordered
  )
  UPDATE "Change" c SET position = numbering.position FROM numbering WHERE c.seq = numbering.seq\003B
  GET DIAGNOSTICS numbered = ROW_COUNT\003B
  IF numbered > 0 THEN
    PERFORM pg_notify(''changes'', '''')\003B
  END IF\003B
  RETURN numbered\003B
END
';
