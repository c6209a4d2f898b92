-- Fields the API declares never null, whose columns allowed null (Prisma makes list
-- columns nullable, and payDate was filled by the service only): found by
-- test/migrations.test.ts, written by `npm run migration:create`, with the values
-- the service writes given first to any row without one.

-- Contact: column "tags" is nullable, declared NOT NULL
UPDATE "Contact" SET "tags" = ARRAY[]::TEXT[] WHERE "tags" IS NULL;
ALTER TABLE "Contact" ALTER COLUMN "tags" SET NOT NULL;

-- PayrollRun: column "payDate" is nullable, declared NOT NULL
UPDATE "PayrollRun" SET "payDate" = "periodEnd" WHERE "payDate" IS NULL;
ALTER TABLE "PayrollRun" ALTER COLUMN "payDate" SET NOT NULL;

-- PayrollRun: column "skippedEmployeeIds" is nullable, declared NOT NULL
UPDATE "PayrollRun" SET "skippedEmployeeIds" = ARRAY[]::TEXT[] WHERE "skippedEmployeeIds" IS NULL;
ALTER TABLE "PayrollRun" ALTER COLUMN "skippedEmployeeIds" SET NOT NULL;
