-- Payment terms (src/graphql/finance/terms): the organization's default (30 days),
-- a contact's own (null: the organization's). An invoice's terms are not stored:
-- they are its dueDate − issueDate (a computed field), so existing invoices show
-- the days between their two dates, and nothing needs a backfill.

-- The tables Prisma keeps (prisma/schema.prisma)
-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "paymentTermsDays" INTEGER NOT NULL DEFAULT 30;

-- Declared resources (src/graphql/kit/declared-table.ts)

-- Contact: no column "paymentTermsDays"
ALTER TABLE "Contact" ADD COLUMN "paymentTermsDays" INTEGER;

-- Overdue invoices: the organization's day on which the worker raised invoice.overdue
-- (src/graphql/finance/terms/overdue-sweep.ts), null until then. Not a public field.
ALTER TABLE "Invoice" ADD COLUMN "overdueNotifiedOn" DATE;

-- Invoices overdue before this migration became so on an earlier day: the event
-- belongs to that day, so they count as notified then and the first sweep raises
-- nothing for them (no burst of invoice.overdue about old invoices).
UPDATE "Invoice" i SET "overdueNotifiedOn" = i."dueDate" + 1
FROM "Organization" o
WHERE o.id = i."organizationId" AND i.status = 'open'
  AND i."dueDate" < (now() AT TIME ZONE o."timeZone")::date;

-- The sweep reads only the open invoices not yet notified, by due date.
CREATE INDEX "Invoice_overdue_sweep_idx" ON "Invoice" ("dueDate") WHERE status = 'open' AND "overdueNotifiedOn" IS NULL;

-- The aging report and the overdue filter read an organization's open invoices.
CREATE INDEX "Invoice_open_idx" ON "Invoice" ("organizationId", "dueDate") WHERE status = 'open';
