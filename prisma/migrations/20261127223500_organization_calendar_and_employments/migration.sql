-- The organization's calendar: its time zone (days of attendance, notice periods,
-- "today") and its working week (ISO weekdays, 1 Monday .. 7 Sunday).
ALTER TABLE "Organization" ADD COLUMN "timeZone" TEXT NOT NULL DEFAULT 'UTC',
  ADD COLUMN "workingDays" SMALLINT[] NOT NULL DEFAULT '{1,2,3,4,5}';

-- An employee's periods of employment, in order (seq 1, 2, ...): the first from
-- the hire, another from each reinstatement. Payroll pays the days inside them.
CREATE TABLE "Employment" (
    "organizationId" TEXT NOT NULL,
    "employeeId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "startDate" DATE,
    "endDate" DATE,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Employment_pkey" PRIMARY KEY ("employeeId", "seq")
);

ALTER TABLE "Employment" ADD CONSTRAINT "Employment_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Employment" ADD CONSTRAINT "Employment_employeeId_fkey" FOREIGN KEY ("employeeId") REFERENCES "Employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every employee so far had one period: from their start date to their end date (if terminated).
INSERT INTO "Employment" ("organizationId", "employeeId", "seq", "startDate", "endDate")
SELECT "organizationId", id, 1, "startDate", "endDate" FROM "Employee";
