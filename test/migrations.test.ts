import 'reflect-metadata';
// What a migration must hold for each declared resource, read from the migrated
// database (src/graphql/kit/declared-schema.ts): its table with a column per
// public field, the index lists page by, unique indexes, foreign keys, the count
// triggers of list totals, and its search's stored lowered column with the
// trigram index on it. A migration that
// forgets one fails here with the SQL to add, which `npm run migration:create`
// writes by itself.
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../src/graphql/modules.js';
import { declaredResources } from '../src/graphql/kit/declared.js';
import { declaredSchemaGaps, describeGaps, migrationSqlOf } from '../src/graphql/kit/declared-schema.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startTestServer } from './support/server.js';

const resources = () => [...declaredResources().values()];

let database: TestDatabase;
let db: pg.Client;
const databases: TestDatabase[] = [];

// Each test changes its own copy of the migrated database.
beforeEach(async () => {
  database = await createTestDatabase();
  databases.push(database);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});
afterEach(async () => {
  await db.end();
});
afterAll(async () => {
  for (const each of databases) await each.drop();
});

const gapsNow = () => declaredSchemaGaps(db, resources());

it("today's migrations hold what every declared resource needs", async () => {
  expect(resources().length).toBeGreaterThanOrEqual(9);
  const gaps = await gapsNow();
  expect(gaps, describeGaps(gaps)).toEqual([]);
});

describe('a migration that forgets something', () => {
  it('fails naming what is missing with the SQL that adds it, and that SQL closes the gap', async () => {
    await db.query(`
      drop index "Contact_search_idx";
      drop index "Deal_search_idx";
      create index "Deal_search_idx" on "Deal" using gin ("organizationId", title gin_trgm_ops);
      alter table "Employee" drop column "searchText";
      alter table "TaxRate" drop column "searchText";
      alter table "TaxRate" add column "searchText" text generated always as ("TaxRate".name) stored;
      create index "TaxRate_search_idx" on "TaxRate" using gin ("organizationId", "searchText" gin_trgm_ops);
      drop trigger "Deal_count_inserted" on "Deal";
      drop trigger "Deal_count_deleted" on "Deal";
      drop trigger "Employee_count_deleted" on "Employee";
      alter table "Employee" drop column phone;
      alter table "Expense" drop column currency;
      alter table "Expense" alter column description set not null;
      alter table "Attendance" alter column "minutesWorked" type bigint;
      alter table "Deal" drop constraint "Deal_contactId_fkey";
      drop index "Invoice_organizationId_number_key";
      drop index "Payment_organizationId_createdAt_id_idx";
      alter table "LeaveRequest" drop constraint "LeaveRequest_employeeId_fkey";
      alter table "LeaveRequest" add constraint "LeaveRequest_employeeId_fkey" foreign key ("employeeId")
        references "Employee"(id) on delete restrict;`);
    const gaps = await gapsNow();
    expect(gaps.map(({ table, problem }) => `${table}: ${problem}`).sort()).toEqual([
      'Attendance: column "minutesWorked" is bigint, declared INTEGER',
      'Contact: no trigram index on ("organizationId", "searchText") for its text search',
      'Deal: no count triggers (list totals)',
      'Deal: no foreign key from "contactId" to "Contact"',
      'Deal: no trigram index on ("organizationId", "searchText") for its text search',
      'Employee: no Employee_count_deleted trigger (list totals)',
      'Employee: no column "phone"',
      'Employee: no column "searchText" generated as lower("Employee"."firstName" || \' \' || "Employee"."lastName" || ' +
        '\' \' || "Employee"."email" || \' \' || coalesce("Employee"."jobTitle", \'\')) for its text search',
      'Expense: column "description" is NOT NULL, declared nullable',
      'Expense: no column "currency"',
      'Invoice: no unique index on ("organizationId", "number")',
      'LeaveRequest: the foreign key "LeaveRequest_employeeId_fkey" deletes ON DELETE RESTRICT, the declaration says CASCADE',
      'Payment: no index on ("organizationId", "createdAt", "id") for its lists\' pages',
      'TaxRate: no column "searchText" generated as lower("TaxRate"."name") for its text search',
    ]);
    const sql = Object.fromEntries(gaps.map(({ table, problem, sql }) => [`${table}: ${problem}`, sql]));
    expect(sql['Deal: no count triggers (list totals)']).toBe(`SELECT kit_count_rows('Deal');`);
    expect(sql['Deal: no trigram index on ("organizationId", "searchText") for its text search']).toBe(
      'DROP INDEX "Deal_search_idx";\n' +
        'CREATE INDEX "Deal_search_idx" ON "Deal" USING gin ("organizationId", "searchText" gin_trgm_ops);',
    );
    // A column generated as another expression: PostgreSQL 15 cannot change it in place.
    expect(sql['TaxRate: no column "searchText" generated as lower("TaxRate"."name") for its text search']).toBe(
      'DROP INDEX "TaxRate_search_idx";\n' +
        'ALTER TABLE "TaxRate" DROP COLUMN "searchText";\n' +
        'ALTER TABLE "TaxRate" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("TaxRate"."name")) STORED;\n' +
        'CREATE INDEX "TaxRate_search_idx" ON "TaxRate" USING gin ("organizationId", "searchText" gin_trgm_ops);\n' +
        'ANALYZE "TaxRate";',
    );
    expect(sql['Employee: no column "phone"']).toBe('ALTER TABLE "Employee" ADD COLUMN "phone" TEXT;');
    expect(sql['Expense: no column "currency"']).toBe(
      '-- NOT NULL without a default: fails while "Expense" has rows: give them a value first.\n' +
        'ALTER TABLE "Expense" ADD COLUMN "currency" TEXT NOT NULL;',
    );
    expect(sql['Deal: no foreign key from "contactId" to "Contact"']).toBe(
      'ALTER TABLE "Deal" ADD CONSTRAINT "Deal_contactId_fkey" FOREIGN KEY ("contactId") ' +
        'REFERENCES "Contact"("id") ON DELETE SET NULL;',
    );
    expect(describeGaps(gaps)).toContain(
      'Invoice: no unique index on ("organizationId", "number"). Add to a migration:\n' +
        '  CREATE UNIQUE INDEX "Invoice_organizationId_number_key" ON "Invoice"("organizationId", "number");',
    );

    const migration = migrationSqlOf(gaps);
    // Prisma's migration runner splits a script at every semicolon, even in a comment.
    expect(migration).not.toMatch(/^--.*;/m);
    await db.query(migration);
    const left = await gapsNow();
    expect(left, describeGaps(left)).toEqual([]);
  });

  it('names a unique index or foreign key the service could not tell the field of', async () => {
    await db.query(`
      alter index "Employee_organizationId_email_key" rename to "Employee_mail_unique";
      alter table "Expense" rename constraint "Expense_employeeId_fkey" to "Expense_owner";`);
    const gaps = await gapsNow();
    expect(gaps.map(({ sql }) => sql)).toEqual([
      'ALTER INDEX "Employee_mail_unique" RENAME TO "Employee_organizationId_email_key";',
      'ALTER TABLE "Expense" RENAME CONSTRAINT "Expense_owner" TO "Expense_employeeId_fkey";',
    ]);
  });
});

describe('a declared resource without its table', () => {
  it("is created by its declaration's SQL, which serves its API", async () => {
    await db.query('drop table "Deal"');
    const gaps = await gapsNow();
    const sql = migrationSqlOf(gaps);
    expect(sql).toContain(`CREATE TABLE "Deal" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "title" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'lead',
    "contactId" TEXT,
    "expectedCloseDate" DATE,
    "closedAt" TIMESTAMPTZ(3),
    CONSTRAINT "Deal_pkey" PRIMARY KEY ("id")
);`);
    for (const part of [
      'CREATE INDEX "Deal_organizationId_createdAt_id_idx" ON "Deal"("organizationId", "createdAt", "id");',
      'CREATE INDEX "Deal_contactId_idx" ON "Deal"("contactId");',
      'ALTER TABLE "Deal" ADD CONSTRAINT "Deal_organizationId_fkey" FOREIGN KEY ("organizationId") ' +
        'REFERENCES "Organization"("id") ON DELETE CASCADE;',
      `SELECT kit_count_rows('Deal');`,
      'ALTER TABLE "Deal" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS (lower("Deal"."title")) STORED;',
      'CREATE INDEX "Deal_search_idx" ON "Deal" USING gin ("organizationId", "searchText" gin_trgm_ops);',
    ]) {
      expect(sql).toContain(part);
    }
    await db.query(sql);
    const left = await gapsNow();
    expect(left, describeGaps(left)).toEqual([]);

    const server = await startTestServer({}, { url: database.url, drop: async () => {} });
    try {
      const org = await server.createOrganization();
      const key = await server.createKey(org, ['crm:read', 'crm:write']);
      const created = await server.request('POST', '/v1/crm/deals', {
        key,
        body: { title: 'Rebuilt table', amount: 1250, currency: 'EUR', expectedCloseDate: '2027-01-31' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ stage: 'lead', amount: 1250, expectedCloseDate: '2027-01-31' });
      const found = await server.request('GET', '/v1/crm/deals?q=rebuilt', { key });
      expect(found.status, found.text).toBe(200);
      expect(found.body.data.map((deal: { id: string }) => deal.id)).toEqual([created.body.id]);
      const all = await server.request('GET', '/v1/crm/deals', { key });
      expect(all.body.pagination.total).toBe(1);
    } finally {
      await server.close();
    }
  });
});
