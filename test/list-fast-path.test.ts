import 'reflect-metadata';
// What keeps lists fast as data grows must not change what they answer: totals
// read from the maintained counts equal a count of the rows through concurrent
// writes, rollbacks and bulk statements; deep pages (found through the index
// first) hold the same rows as shallow ones would; and `q` is served by the
// trigram index its migration builds.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactList } from '../src/graphql/crm/contact/input.js';
import { dealList } from '../src/graphql/crm/deal/input.js';
import { likePattern, type AnyListDefinition } from '../src/graphql/kit/list.js';
import { useServer } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let db: pg.Pool;

beforeAll(() => {
  db = new pg.Pool({ connectionString: server.databaseUrl, max: 4 });
});
afterAll(async () => {
  await db.end();
});

async function rowCount(table: string, organizationId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from "${table}" where "organizationId" = $1`,
    [organizationId],
  );
  return rows[0]!.n;
}

async function listedTotal(path: string, key: string): Promise<number> {
  const res = await server.rest('GET', path, { key });
  expect(res.status).toBe(200);
  return res.body.pagination.total as number;
}

/** Inserts `count` contacts in one statement, created a second apart from `start`. */
async function insertContacts(organizationId: string, prefix: string, count: number): Promise<void> {
  await db.query(
    `insert into "Contact" (id, "organizationId", email, "firstName", company, tags, "createdAt", "updatedAt")
     select 'con_' || $2 || lpad(i::text, 6, '0'), $1, $2 || i || '@bulk.example', 'Bulk' || i,
            'Company ' || (i % 7), case when i % 3 = 0 then array['third'] else array[]::text[] end,
            timestamptz '2024-01-01 00:00:00Z' + (i / 2) * interval '1 second', now()
     from generate_series(1, $3::int) as i`,
    [organizationId, prefix, count],
  );
}

describe('unfiltered list totals, read from the maintained counts', () => {
  it('stay exact for each organization through concurrent creates, conflicts and deletes', async () => {
    const [a, b] = [await server.org(), await server.org()];
    const [keyA, keyB] = [await a.key(['crm:read', 'crm:write']), await b.key(['crm:read', 'crm:write'])];
    const create = (key: string, email: string) =>
      server.rest('POST', '/v1/crm/contacts', { key, body: { email, firstName: 'Ada' } });
    // 40 at once spread over the server's pool (so over several count shards), 10 of them duplicates.
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => create(keyA, `a${i}@example.com`)),
      ...Array.from({ length: 10 }, (_, i) => create(keyA, `a${i}@example.com`)),
      ...Array.from({ length: 7 }, (_, i) => create(keyB, `b${i}@example.com`)),
    ]);
    expect(answers.filter((res) => res.status === 201)).toHaveLength(37);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(10);
    const created = answers.filter((res) => res.status === 201 && String(res.body.email).startsWith('a'));
    await Promise.all(
      created.slice(0, 12).map((res) => server.rest('DELETE', `/v1/crm/contacts/${res.body.id}`, { key: keyA })),
    );

    expect(await rowCount('Contact', a.id)).toBe(18);
    expect(await listedTotal('/v1/crm/contacts', keyA)).toBe(18);
    expect(await listedTotal('/v1/crm/contacts', keyB)).toBe(7);
  });

  it('do not count a rolled-back insert', async () => {
    const a = await server.org();
    const key = await a.key(['crm:read', 'crm:write']);
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'kept@example.com' } });
    const client = await db.connect();
    try {
      await client.query('begin');
      await client.query(
        `insert into "Contact" (id, "organizationId", email, "updatedAt") values ('con_rolledback', $1, 'gone@example.com', now())`,
        [a.id],
      );
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await listedTotal('/v1/crm/contacts', key)).toBe(1);
  });

  it('count every row of bulk inserts and deletes, and of deals and API keys alike', async () => {
    const a = await server.org();
    const key = await a.key(['crm:read', 'crm:write', 'admin']);
    await insertContacts(a.id, 'bulk', 1_500);
    await db.query(`delete from "Contact" where "organizationId" = $1 and "firstName" like 'Bulk1%'`, [a.id]);
    const expected = await rowCount('Contact', a.id);
    expect(expected).toBeLessThan(1_500);
    expect(await listedTotal('/v1/crm/contacts', key)).toBe(expected);

    for (let i = 0; i < 3; i++) {
      const res = await server.rest('POST', '/v1/crm/deals', { key, body: { title: `D${i}`, currency: 'EUR' } });
      expect(res.status).toBe(201);
    }
    expect(await listedTotal('/v1/crm/deals', key)).toBe(3);
    expect(await listedTotal('/v1/api-keys', key)).toBe(await rowCount('ApiKey', a.id));
  });
});

describe('deep pages (from offset 1,000, found through the index first)', () => {
  let org: string;
  let key: string;

  beforeAll(async () => {
    const a = await server.org();
    org = a.id;
    key = await a.key(['crm:read']);
    await insertContacts(org, 'deep', 1_230);
  });

  async function expectedIds(orderBy: string, offset: number, where = 'true'): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      `select id from "Contact" where "organizationId" = $1 and ${where} order by ${orderBy} limit 50 offset $2`,
      [org, offset],
    );
    return rows.map((row) => row.id);
  }

  const ids = async (query: string) => {
    const res = await server.rest('GET', `/v1/crm/contacts?${query}`, { key });
    expect(res.status).toBe(200);
    return (res.body.data as { id: string }[]).map((contact) => contact.id);
  };

  it('hold the same rows, in the same order, as the order promises', async () => {
    for (const page of [20, 21, 22, 25]) {
      expect(await ids(`limit=50&page=${page}`)).toEqual(await expectedIds(`"createdAt", id`, (page - 1) * 50));
    }
    expect(await ids('limit=50&page=25&sort=-email')).toEqual(await expectedIds('email desc, id desc', 1_200));
    expect(await ids('limit=50&page=25')).toHaveLength(30);
    expect(await ids('limit=50&page=26')).toEqual([]);
  });

  it('hold the same rows when filtered, with the filtered total', async () => {
    const res = await server.rest('GET', '/v1/crm/contacts?limit=10&page=41&tag=third', { key });
    expect(res.body.pagination).toEqual({ page: 41, limit: 10, total: 410, pages: 41, totalExact: true, next: null });
    const { rows } = await db.query<{ id: string }>(
      `select id from "Contact" where "organizationId" = $1 and 'third' = any(tags)
       order by "createdAt", id limit 10 offset 400`,
      [org],
    );
    expect((res.body.data as { id: string }[]).map((contact) => contact.id)).toEqual(rows.map((row) => row.id));
  });
});

describe('q', () => {
  /**
   * The plan of a count under the list's own `q` condition alone, sequential scans
   * ruled out: only an index built on exactly that expression can serve it, so any
   * other plan is a (penalised) Seq Scan. The organization's condition is left out
   * on purpose: which index wins with it depends on the data and the planner version.
   */
  async function planOf(table: string, list: AnyListDefinition): Promise<string> {
    const condition = list.filters.q!.where('$1');
    const client = await db.connect();
    try {
      await client.query('set enable_seqscan = off');
      await client.query(`prepare q_plan (text) as select count(*) from "${table}" where ${condition}`);
      const { rows } = await client.query(`explain (format json) execute q_plan ('${likePattern('lovelace')}')`);
      await client.query('deallocate q_plan');
      await client.query('reset enable_seqscan');
      return JSON.stringify(rows);
    } finally {
      client.release();
    }
  }

  it('is served by the trigram index of each searchable resource', async () => {
    expect(await planOf('Contact', contactList)).toContain('Contact_search_idx');
    expect(await planOf('Deal', dealList)).toContain('Deal_search_idx');
  });

  it('finds words across names, email and company, case-insensitively, with % and _ literal', async () => {
    const a = await server.org();
    const key = await a.key(['crm:read', 'crm:write']);
    const contacts = [
      { email: 'ada@engines.example', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines' },
      { email: 'grace@navy.example', firstName: 'Grace', lastName: 'Hopper' },
      { email: 'percent@x.example', company: '100% Cotton' },
      { email: 'under_score@x.example' },
      { email: 'underXscore@x.example' },
    ];
    for (const body of contacts)
      expect((await server.rest('POST', '/v1/crm/contacts', { key, body })).status).toBe(201);
    const found = async (q: string) => {
      const res = await server.rest('GET', `/v1/crm/contacts?q=${encodeURIComponent(q)}`, { key });
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(res.body.data.length);
      return (res.body.data as { email: string }[]).map((contact) => contact.email).sort();
    };
    expect(await found('ada lovelace')).toEqual(['ada@engines.example']);
    expect(await found('HOPPER')).toEqual(['grace@navy.example']);
    expect(await found('analytical')).toEqual(['ada@engines.example']);
    expect(await found('0% c')).toEqual(['percent@x.example']);
    expect(await found('under_')).toEqual(['under_score@x.example']);
    expect(await found('navy.example')).toEqual(['grace@navy.example']);
    expect(await found('zz')).toEqual([]);
  });
});
