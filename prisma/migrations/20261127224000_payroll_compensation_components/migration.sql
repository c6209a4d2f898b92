-- Payroll (issue 25): compensation history, pay components, payslips and the
-- skipped employees of a run with why. Written by npm run migration:create,
-- then the unique index of Compensation, the backfills and the dropped
-- Employee columns by hand.

-- Compensation: an employee's salary from a date on (null: from the beginning).
CREATE TABLE "Compensation" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "employeeId" TEXT NOT NULL,
    "salary" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "effectiveFrom" DATE,
    CONSTRAINT "Compensation_pkey" PRIMARY KEY ("id")
);

-- PayComponent: an earning or a deduction of an employee's pay.
CREATE TABLE "PayComponent" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "employeeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "amount" BIGINT,
    "percentage" NUMERIC(5,2),
    "from" DATE NOT NULL,
    "to" DATE,
    CONSTRAINT "PayComponent_pkey" PRIMARY KEY ("id")
);

-- PayrollRun: no column "skipped"
ALTER TABLE "PayrollRun" ADD COLUMN "skipped" JSONB NOT NULL DEFAULT '[]'::jsonb;

-- Compensation: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "Compensation_organizationId_createdAt_id_idx" ON "Compensation"("organizationId", "createdAt", "id");

-- Compensation: one record per employee and day, null (from the beginning) once too. It is also the
-- index of the reference (employeeId first): the employee's history, deletes of the employee.
CREATE UNIQUE INDEX "Compensation_employeeId_effectiveFrom_key" ON "Compensation"("employeeId", "effectiveFrom") NULLS NOT DISTINCT;

-- PayComponent: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "PayComponent_organizationId_createdAt_id_idx" ON "PayComponent"("organizationId", "createdAt", "id");

-- PayComponent: no index on "employeeId" (a reference)
CREATE INDEX "PayComponent_employeeId_idx" ON "PayComponent"("employeeId");

-- Compensation: no foreign key from "organizationId" to "Organization"
ALTER TABLE "Compensation" ADD CONSTRAINT "Compensation_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- Compensation: no foreign key from "employeeId" to "Employee"
ALTER TABLE "Compensation" ADD CONSTRAINT "Compensation_employeeId_fkey" FOREIGN KEY ("employeeId") REFERENCES "Employee"("id") ON DELETE CASCADE;

-- PayComponent: no foreign key from "organizationId" to "Organization"
ALTER TABLE "PayComponent" ADD CONSTRAINT "PayComponent_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- PayComponent: no foreign key from "employeeId" to "Employee"
ALTER TABLE "PayComponent" ADD CONSTRAINT "PayComponent_employeeId_fkey" FOREIGN KEY ("employeeId") REFERENCES "Employee"("id") ON DELETE CASCADE;

-- Compensation: no count triggers (list totals)
SELECT kit_count_rows('Compensation');

-- PayComponent: no count triggers (list totals)
SELECT kit_count_rows('PayComponent');

-- Every salary on file becomes a compensation record, effective from the start of the employee's first period
-- of employment (null when not recorded: from the beginning), as a hire with a salary now records it. Its id
-- is the employee's with the compensation prefix (one record per employee: unique, sorted by the hire).
INSERT INTO "Compensation" (id, "organizationId", "employeeId", salary, currency, "effectiveFrom", "createdAt", "updatedAt")
SELECT 'cmp_' || substr(e.id, 5), e."organizationId", e.id, e.salary, e.currency,
       (SELECT m."startDate" FROM "Employment" m WHERE m."employeeId" = e.id ORDER BY m.seq LIMIT 1),
       e."createdAt", e."createdAt"
FROM "Employee" e WHERE e.salary IS NOT NULL AND e.currency IS NOT NULL;

-- The employee's salary and currency are now the compensation in effect (read with the employee).
ALTER TABLE "Employee" DROP COLUMN "salary", DROP COLUMN "currency";

-- A payslip per item: its deductions and net, its lines and what they were worked out from.
ALTER TABLE "PayrollItem" ADD COLUMN "deductionsAmount" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "netAmount" BIGINT,
  ADD COLUMN "lines" JSONB NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN "basis" JSONB;

-- Items computed before payslips: one salary line of their gross (annual × days over the year's length, the
-- rule then), no deduction, the days from the employee's start (or the period's) to the period's end: the
-- compensation they used was not recorded.
UPDATE "PayrollItem" i SET "netAmount" = i."grossAmount",
  lines = jsonb_build_array(jsonb_build_object('kind', 'earning', 'code', 'salary',
    'description', 'Salary for the period (computed before payslips: annual salary x days / days in the year)',
    'amount', i."grossAmount")),
  basis = jsonb_build_object(
    'daysPaid', r."periodEnd" - greatest(r."periodStart", coalesce(
      (SELECT min(e."startDate") FROM "Employment" e WHERE e."employeeId" = i."employeeId"), r."periodStart")) + 1,
    'daysInPeriod', r."periodEnd" - r."periodStart" + 1,
    'compensation', '[]'::jsonb)
FROM "PayrollRun" r
WHERE r.id = i."runId";

ALTER TABLE "PayrollItem" ALTER COLUMN "netAmount" SET NOT NULL, ALTER COLUMN "basis" SET NOT NULL;

-- The skipped employees of earlier runs, with why: starting after the period, else without a salary.
UPDATE "PayrollRun" r SET skipped = coalesce((
  SELECT jsonb_agg(jsonb_build_object('employeeId', s.id,
           'reason', CASE WHEN e."startDate" > r."periodEnd" THEN 'starts_after_period' ELSE 'no_compensation' END)
         ORDER BY s.n)
  FROM unnest(r."skippedEmployeeIds") WITH ORDINALITY AS s(id, n) LEFT JOIN "Employee" e ON e.id = s.id), '[]'::jsonb)
WHERE cardinality(r."skippedEmployeeIds") > 0;
