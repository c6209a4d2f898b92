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

-- Every event about a record (data.object.id) becomes a change in the same transaction:
-- one small insert beside the event's, and one NOTIFY per transaction (same payload is folded).
CREATE FUNCTION change_from_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.data -> 'object' ->> 'id') IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "Change" ("organizationId", "eventId", type, "recordId", data, "actorType", "actorId", "createdAt")
  VALUES (NEW."organizationId", NEW.id, NEW.type, NEW.data -> 'object' ->> 'id', NEW.data, NEW."actorType", NEW."actorId", NEW."createdAt");
  PERFORM pg_notify('changes', '');
  RETURN NULL;
END $$;
CREATE TRIGGER "Event_change" AFTER INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION change_from_event();

-- The sequencer: numbers the committed, unnumbered changes it can see, in insertion order.
-- Serialized by a transaction-scoped advisory lock, and run in its own short transaction: a change
-- that commits after this runs gets a later position, so a reader of position > cursor skips nothing.
-- The statement after the lock takes a fresh snapshot (READ COMMITTED, volatile function).
CREATE FUNCTION change_sequence() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE numbered bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(2029001);
  WITH todo AS (
    SELECT seq FROM "Change" WHERE position IS NULL ORDER BY seq LIMIT 50000
  ), numbering AS (
    SELECT seq, nextval('"Change_position_seq"') AS position FROM (SELECT seq FROM todo ORDER BY seq) ordered
  )
  UPDATE "Change" c SET position = numbering.position FROM numbering WHERE c.seq = numbering.seq;
  GET DIAGNOSTICS numbered = ROW_COUNT;
  RETURN numbered;
END $$;
