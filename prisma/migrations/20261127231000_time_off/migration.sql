-- Declared resources (src/graphql/kit/declared-table.ts)

-- Holiday: the table is missing
CREATE TABLE "Holiday" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "date" DATE NOT NULL,
    "name" TEXT NOT NULL,
    CONSTRAINT "Holiday_pkey" PRIMARY KEY ("id")
);

-- LeavePolicy: the table is missing
CREATE TABLE "LeavePolicy" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "type" TEXT NOT NULL,
    "fromYear" INTEGER,
    "daysPerYear" INTEGER NOT NULL,
    "accrual" TEXT NOT NULL,
    "carryOverDays" INTEGER NOT NULL,
    "allowNegative" BOOLEAN NOT NULL,
    CONSTRAINT "LeavePolicy_pkey" PRIMARY KEY ("id")
);

-- LeaveRequest: no column "days" (its working days). Existing requests get theirs
-- from the organization's working week (default Monday to Friday): there are no
-- holidays yet. A request made before the check may count 0 (weekend-only leave).
ALTER TABLE "LeaveRequest" ADD COLUMN "days" INTEGER;
UPDATE "LeaveRequest" l SET "days" = (
  SELECT count(*)::int FROM "Organization" o, generate_series(l."from", l."to", interval '1 day') AS d(day)
  WHERE o.id = l."organizationId" AND extract(isodow FROM d.day)::smallint = ANY (o."workingDays"));
ALTER TABLE "LeaveRequest" ALTER COLUMN "days" SET NOT NULL;

-- Holiday: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "Holiday_organizationId_createdAt_id_idx" ON "Holiday"("organizationId", "createdAt", "id");

-- Holiday: no unique index on ("organizationId", "date")
CREATE UNIQUE INDEX "Holiday_organizationId_date_key" ON "Holiday"("organizationId", "date");

-- LeavePolicy: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "LeavePolicy_organizationId_createdAt_id_idx" ON "LeavePolicy"("organizationId", "createdAt", "id");

-- LeavePolicy: one policy per type and first year (null: every year) in the organization. The
-- service checks it first (409 naming type, under a transaction lock): this is the last guard.
CREATE UNIQUE INDEX "LeavePolicy_organizationId_type_fromYear_idx" ON "LeavePolicy"("organizationId", "type", COALESCE("fromYear", 0));

-- Holiday: no foreign key from "organizationId" to "Organization"
ALTER TABLE "Holiday" ADD CONSTRAINT "Holiday_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- LeavePolicy: no foreign key from "organizationId" to "Organization"
ALTER TABLE "LeavePolicy" ADD CONSTRAINT "LeavePolicy_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- Holiday: no count triggers (list totals)
SELECT kit_count_rows('Holiday');

-- LeavePolicy: no count triggers (list totals)
SELECT kit_count_rows('LeavePolicy');
