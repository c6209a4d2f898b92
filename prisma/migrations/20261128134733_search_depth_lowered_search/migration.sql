-- Issue 28: a search reads its expression lowered once on write, in a stored generated
-- column, with LIKE (what ILIKE does row by row in a UTF-8 database): the trigram index moves
-- to that column (one index still: the old one is dropped). Adding the column rewrites each
-- table, computing it for every existing row, and leaves its visibility map empty: run
-- VACUUM on a large table after (deep pages' index-only scans read the heap until then).
-- Each table is analyzed here: without the new column's statistics the planner takes a
-- common word for a rare one.

-- Declared resources (src/graphql/kit/declared-table.ts)

-- Contact: no column "searchText" generated as lower(coalesce("Contact"."firstName", '') || ' ' || coalesce("Contact"."lastName", '') || ' ' || "Contact"."email" || ' ' || coalesce("Contact"."company", '')) for its text search
DROP INDEX "Contact_search_idx";
ALTER TABLE "Contact" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower(coalesce("Contact"."firstName", '') || ' ' || coalesce("Contact"."lastName", '') || ' ' || "Contact"."email" || ' ' || coalesce("Contact"."company", ''))) STORED;
CREATE INDEX "Contact_search_idx" ON "Contact" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "Contact";

-- Deal: no column "searchText" generated as lower("Deal"."title") for its text search
DROP INDEX "Deal_search_idx";
ALTER TABLE "Deal" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("Deal"."title")) STORED;
CREATE INDEX "Deal_search_idx" ON "Deal" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "Deal";

-- Invoice: no column "searchText" generated as lower(("Invoice".number || ' ' || (jsonb_path_query_array("Invoice".lines, '$[*].description')::text))) for its text search
DROP INDEX "Invoice_search_idx";
ALTER TABLE "Invoice" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower(("Invoice".number || ' ' || (jsonb_path_query_array("Invoice".lines, '$[*].description')::text)))) STORED;
CREATE INDEX "Invoice_search_idx" ON "Invoice" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "Invoice";

-- CreditNote: no column "searchText" generated as lower("CreditNote"."reason" || ' ' || coalesce("CreditNote"."number", '')) for its text search
DROP INDEX "CreditNote_search_idx";
ALTER TABLE "CreditNote" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("CreditNote"."reason" || ' ' || coalesce("CreditNote"."number", ''))) STORED;
CREATE INDEX "CreditNote_search_idx" ON "CreditNote" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "CreditNote";

-- Department: no column "searchText" generated as lower("Department"."name" || ' ' || "Department"."code") for its text search
DROP INDEX "Department_search_idx";
ALTER TABLE "Department" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("Department"."name" || ' ' || "Department"."code")) STORED;
CREATE INDEX "Department_search_idx" ON "Department" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "Department";

-- Employee: no column "searchText" generated as lower("Employee"."firstName" || ' ' || "Employee"."lastName" || ' ' || "Employee"."email" || ' ' || coalesce("Employee"."jobTitle", '')) for its text search
DROP INDEX "Employee_search_idx";
ALTER TABLE "Employee" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("Employee"."firstName" || ' ' || "Employee"."lastName" || ' ' || "Employee"."email" || ' ' || coalesce("Employee"."jobTitle", ''))) STORED;
CREATE INDEX "Employee_search_idx" ON "Employee" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "Employee";

-- TaxRate: no column "searchText" generated as lower("TaxRate"."name") for its text search
DROP INDEX "TaxRate_search_idx";
ALTER TABLE "TaxRate" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("TaxRate"."name")) STORED;
CREATE INDEX "TaxRate_search_idx" ON "TaxRate" USING gin ("organizationId", "searchText" gin_trgm_ops);
ANALYZE "TaxRate";
