-- CreateTable
CREATE TABLE "RecordCount" (
    "tableName" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "RecordCount_pkey" PRIMARY KEY ("tableName","organizationId","shard")
);

-- Row counts kept by statement triggers, reading the statement transition tables.
-- Function bodies are U& strings with \003B for each semicolon: the migration runner
-- splits scripts at every semicolon, even inside quotes
CREATE FUNCTION kit_count_inserted() RETURNS trigger LANGUAGE plpgsql AS U&'
BEGIN
  INSERT INTO "RecordCount" ("tableName", "organizationId", shard, count)
  SELECT TG_TABLE_NAME, "organizationId", pg_backend_pid() % 16, count(*)
  FROM kit_changed_rows GROUP BY "organizationId" ORDER BY "organizationId"
  ON CONFLICT ("tableName", "organizationId", shard) DO UPDATE SET count = "RecordCount".count + excluded.count\003B
  RETURN NULL\003B
END
';

CREATE FUNCTION kit_count_deleted() RETURNS trigger LANGUAGE plpgsql AS U&'
BEGIN
  INSERT INTO "RecordCount" ("tableName", "organizationId", shard, count)
  SELECT TG_TABLE_NAME, "organizationId", pg_backend_pid() % 16, -count(*)
  FROM kit_changed_rows GROUP BY "organizationId" ORDER BY "organizationId"
  ON CONFLICT ("tableName", "organizationId", shard) DO UPDATE SET count = "RecordCount".count + excluded.count\003B
  RETURN NULL\003B
END
';

-- Installs the count triggers on a table with an organizationId column and counts its rows once
CREATE FUNCTION kit_count_rows(table_name text) RETURNS void LANGUAGE plpgsql AS U&'
BEGIN
  EXECUTE format(''CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS kit_changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kit_count_inserted()'', table_name || ''_count_inserted'', table_name)\003B
  EXECUTE format(''CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS kit_changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kit_count_deleted()'', table_name || ''_count_deleted'', table_name)\003B
  EXECUTE format(''INSERT INTO "RecordCount" ("tableName", "organizationId", shard, count) SELECT %L, "organizationId", 0, count(*) FROM %I GROUP BY "organizationId"'', table_name, table_name)\003B
END
';

SELECT kit_count_rows('Contact');
SELECT kit_count_rows('Deal');
SELECT kit_count_rows('User');
SELECT kit_count_rows('ApiKey');

-- Text search (the lists q filter) through trigram indexes that also hold the organization
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX "Contact_search_idx" ON "Contact" USING gin ("organizationId", (coalesce("firstName", '') || ' ' || coalesce("lastName", '') || ' ' || email || ' ' || coalesce(company, '')) gin_trgm_ops);
CREATE INDEX "Deal_search_idx" ON "Deal" USING gin ("organizationId", title gin_trgm_ops);
