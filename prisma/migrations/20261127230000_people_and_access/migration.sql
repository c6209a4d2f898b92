-- People and access (issue 25): departments, who decides, salaries are private.
-- Written by `npm run migration:create -- people_and_access`, then by hand: the
-- foreign keys of the references no declaration holds (a department's manager, a
-- user's employee), the departments made from the employees' free-text
-- department, and that column dropped.

-- The tables Prisma keeps (prisma/schema.prisma)
-- A user may be an employee (one user per employee in an organization): nobody decides on their own requests.
ALTER TABLE "User" ADD COLUMN     "employeeId" TEXT;

-- What a webhook's deliveries carry. Every webhook so far was made by an admin, whose scopes are ['admin'].
ALTER TABLE "Webhook" ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['admin']::TEXT[];

-- What an export's file holds. Every export so far was asked for by an admin.
ALTER TABLE "Export" ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['admin']::TEXT[];

CREATE UNIQUE INDEX "User_organizationId_employeeId_key" ON "User"("organizationId", "employeeId");

-- Declared resources (src/graphql/kit/declared-table.ts)

-- Department: the table is missing
CREATE TABLE "Department" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "name" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "managerId" TEXT,
    "parentId" TEXT,
    CONSTRAINT "Department_pkey" PRIMARY KEY ("id")
);

-- Employee: no column "departmentId"
ALTER TABLE "Employee" ADD COLUMN "departmentId" TEXT;

-- Expense: no column "decidedBy"
ALTER TABLE "Expense" ADD COLUMN "decidedBy" JSONB;

-- LeaveRequest: no column "decidedBy"
ALTER TABLE "LeaveRequest" ADD COLUMN "decidedBy" JSONB;

-- Department: no index on ("organizationId", "createdAt", "id") for its lists' pages
CREATE INDEX "Department_organizationId_createdAt_id_idx" ON "Department"("organizationId", "createdAt", "id");

-- Department: no unique index on ("organizationId", "code")
CREATE UNIQUE INDEX "Department_organizationId_code_key" ON "Department"("organizationId", "code");

-- Department: no index on "parentId" (a reference)
CREATE INDEX "Department_parentId_idx" ON "Department"("parentId");

-- Employee: no index on "departmentId" (a reference)
CREATE INDEX "Employee_departmentId_idx" ON "Employee"("departmentId");

-- Department: no foreign key from "organizationId" to "Organization"
ALTER TABLE "Department" ADD CONSTRAINT "Department_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE;

-- Department: no foreign key from "parentId" to "Department"
ALTER TABLE "Department" ADD CONSTRAINT "Department_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Department"("id") ON DELETE RESTRICT;

-- Employee: no foreign key from "departmentId" to "Department"
ALTER TABLE "Employee" ADD CONSTRAINT "Employee_departmentId_fkey" FOREIGN KEY ("departmentId") REFERENCES "Department"("id") ON DELETE RESTRICT;

-- By hand: a department's manager (checked by its rules, not a declared reference:
-- employees reference departments), cleared when the employee is deleted, and a
-- user's employee, likewise.
CREATE INDEX "Department_managerId_idx" ON "Department"("managerId");
ALTER TABLE "Department" ADD CONSTRAINT "Department_managerId_fkey" FOREIGN KEY ("managerId") REFERENCES "Employee"("id") ON DELETE SET NULL;
ALTER TABLE "User" ADD CONSTRAINT "User_employeeId_fkey" FOREIGN KEY ("employeeId") REFERENCES "Employee"("id") ON DELETE SET NULL;

-- Department: no count triggers (list totals)
SELECT kit_count_rows('Department');

-- By hand: the free-text department becomes departments. One per organization and
-- distinct name (trimmed, case-insensitive), named as most of its employees wrote it
-- (ties: the first in order), coded DEP-001, DEP-002, ... by that name (unique: the
-- table is new), its id a well-formed ULID (the time now, then 16 hex characters of
-- an MD5 of the organization and name). Each employee then names theirs. No events:
-- nobody changed these records, the service's form of them did.
INSERT INTO "Department" ("id", "organizationId", "name", "code", "createdAt", "updatedAt")
SELECT 'dep_' || t.stamp || substr(md5(d."organizationId" || ':' || d.key), 1, 16), d."organizationId", d.name,
       'DEP-' || CASE WHEN d.n < 1000 THEN lpad(d.n::text, 3, '0') ELSE d.n::text END, now(), now()
FROM (
  SELECT "organizationId", key, name, row_number() OVER (PARTITION BY "organizationId" ORDER BY key) AS n
  FROM (
    SELECT "organizationId", lower(btrim("department")) AS key,
           mode() WITHIN GROUP (ORDER BY btrim("department")) AS name
    FROM "Employee" WHERE btrim(coalesce("department", '')) <> ''
    GROUP BY "organizationId", lower(btrim("department"))
  ) named
) d
CROSS JOIN (
  SELECT string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz',
                           ((floor(extract(epoch FROM now()) * 1000)::bigint >> (5 * (9 - i))) & 31)::int + 1, 1),
                    '' ORDER BY i) AS stamp
  FROM generate_series(0, 9) AS i
) t;

UPDATE "Employee" e SET "departmentId" = d."id"
FROM "Department" d
WHERE d."organizationId" = e."organizationId" AND lower(d."name") = lower(btrim(e."department"));

-- Employee: no trigram index on ("organizationId", "Employee"."firstName" || ' ' || "Employee"."lastName" || ' ' || "Employee"."email" || ' ' || coalesce("Employee"."jobTitle", '')) for its text search
DROP INDEX "Employee_search_idx";
CREATE INDEX "Employee_search_idx" ON "Employee" USING gin ("organizationId", ("Employee"."firstName" || ' ' || "Employee"."lastName" || ' ' || "Employee"."email" || ' ' || coalesce("Employee"."jobTitle", '')) gin_trgm_ops);

-- Department: no trigram index on ("organizationId", "Department"."name" || ' ' || "Department"."code") for its text search
CREATE INDEX "Department_search_idx" ON "Department" USING gin ("organizationId", ("Department"."name" || ' ' || "Department"."code") gin_trgm_ops);

-- By hand: the free text is gone. `department` is now the name of the employee's department, read with it.
ALTER TABLE "Employee" DROP COLUMN "department";
