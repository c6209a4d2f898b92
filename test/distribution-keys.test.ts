// What distributing the data by organization would need, checked on the
// migrated schema (docs/scaling.md, "Distribution by organization"): every
// tenant table carries "organizationId"; every unique constraint is within
// the organization, or is one of the global lookups the document lists; and
// every foreign key between tenant tables is one the document lists (today
// none carries the organization: the document says what changes). A new
// table, unique constraint or foreign key fails here until it follows the rule
// or the document says why not.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';

const SCALING = readFileSync(new URL('../docs/scaling.md', import.meta.url), 'utf8');

/** Tables without "organizationId", each for the reason docs/scaling.md gives. */
const NOT_TENANT_TABLES = ['Organization', 'ExportChunk', 'ImportChunk', 'WebhookFanout', '_prisma_migrations'];

/** Unique across organizations on purpose: looked up before the organization is known. */
const GLOBAL_UNIQUES = [
  'ApiKey.keyHash',
  'Change.position',
  'User.email',
  'OAuthApp.clientId',
  'OAuthCode.codeHash',
  'OAuthAccessToken.tokenHash',
  'OAuthRefreshToken.tokenHash',
  'Session.tokenHash',
];

let database: TestDatabase;
let db: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await database?.drop();
});

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

/** `Table.columnA,columnB` for each constraint or index of a kind, in the public schema. */
const COLUMNS = `(select string_agg(a.attname, ',' order by k.n) from unnest(con.conkey) with ordinality k(attnum, n)
   join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum)`;

describe('distribution by organization', () => {
  it('every table but the documented ones carries organizationId', async () => {
    const found = await rows<{ name: string }>(`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
        and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organizationId')
      order by 1`);
    expect(found.map((row) => row.name).sort()).toEqual([...NOT_TENANT_TABLES].sort());
    for (const table of NOT_TENANT_TABLES.filter((name) => !name.startsWith('_'))) {
      expect(SCALING, `docs/scaling.md says why ${table} has no organizationId`).toContain(`\`${table}\``);
    }
  });

  it('every unique index is within the organization, or a documented global lookup', async () => {
    const found = await rows<{ name: string }>(
      `
      select c.relname || '.' || (select string_agg(a.attname, ',') from unnest(i.indkey) k
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k) as name
      from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and i.indisunique and not i.indisprimary
        and c.relname <> all($1::text[])
        and not exists (select 1 from unnest(i.indkey) k join pg_attribute a
          on a.attrelid = i.indrelid and a.attnum = k where a.attname = 'organizationId')
        and not exists (select 1 from unnest(i.indkey) k join pg_attribute a
          on a.attrelid = i.indrelid and a.attnum = k join pg_constraint con
          on con.conrelid = i.indrelid and con.contype = 'f' and a.attnum = any(con.conkey)
          where con.confrelid <> '"Organization"'::regclass)
      order by 1`,
      [NOT_TENANT_TABLES],
    );
    // A unique index led by a reference to another tenant record (a payslip per run and
    // employee) is within that record's organization: listed with the foreign keys.
    expect(found.map((row) => row.name).sort()).toEqual([...GLOBAL_UNIQUES].sort());
    for (const name of GLOBAL_UNIQUES) expect(SCALING, name).toContain(`\`${name}\``);
  });

  it('every foreign key between tenant tables is one the document lists', async () => {
    const found = await rows<{ name: string }>(`
      select c.relname || '.' || ${COLUMNS} || ' -> ' || f.relname as name
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class f on f.oid = con.confrelid
        join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and con.contype = 'f' and f.relname <> 'Organization'
      order by 1`);
    const withOrganization = found.filter((row) => row.name.includes('organizationId'));
    // When the keys become composite, this is where they show: none today.
    expect(withOrganization).toEqual([]);
    const undocumented = found.map((row) => row.name).filter((name) => !SCALING.includes(`\`${name}\``));
    expect(undocumented, 'foreign keys docs/scaling.md does not list: add organizationId, or list them').toEqual([]);
  });
});
