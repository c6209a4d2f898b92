import 'reflect-metadata';
// Cursor pages: a client that follows `pagination.next` (or the Link header)
// sees every record exactly once, in the list's order, whatever the sort (nulls
// included), while records are added; a cursor is bound to its list; a filter
// matching very many says its total is a lower bound.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let org: string;
let key: string;

interface Seed {
  id: string;
  organizationId: string;
  email: string;
  company: string | null;
  createdAt: string;
}

const TOTAL = 95;

async function insertContacts(rows: Seed[]) {
  await server.prisma.$executeRaw`
    insert into "Contact" (id, "organizationId", email, company, tags, "createdAt", "updatedAt")
    select id, "organizationId", email, company, '{}', "createdAt", "createdAt"
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as c(id text, "organizationId" text, email text, company text, "createdAt" timestamptz)`;
}

/** The ids in the order PostgreSQL gives for this ORDER BY: what a walk must see. */
async function idsOrderedBy(order: string, where = 'true'): Promise<string[]> {
  const rows = await server.prisma.$queryRawUnsafe<{ id: string }[]>(
    `select id from "Contact" where "organizationId" = $1 and ${where} order by ${order}`,
    org,
  );
  return rows.map((row) => row.id);
}

type Page = { data: { id: string }[]; pagination: Record<string, unknown> };

/** Every page from the first, following `pagination.next`; the answers too. */
async function walk(query: string): Promise<{ ids: string[]; pages: Page[] }> {
  const pages: Page[] = [];
  let after: string | null = null;
  do {
    const separator = query ? '&' : '';
    const res = await server.rest(
      'GET',
      `/v1/crm/contacts?${query}${after ? `${separator}after=${encodeURIComponent(after)}` : ''}`,
      { key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body as Page);
    after = (res.body as Page).pagination.next as string | null;
    expect(pages.length).toBeLessThan(100);
  } while (after);
  return { ids: pages.flatMap((page) => page.data.map((row) => row.id)), pages };
}

beforeAll(async () => {
  const created = await server.org();
  org = created.id;
  key = await created.key(['crm:read', 'crm:write']);
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  await insertContacts(
    Array.from({ length: TOTAL }, (_, i) => ({
      id: `con_${String(5000 - i).padStart(5, '0')}`,
      organizationId: org,
      email: `c${String((i * 37) % TOTAL).padStart(3, '0')}@example.com`,
      // Runs of equal values and nulls: ties broken by id, nulls at one end.
      company: i % 4 === 0 ? null : `Company ${i % 3}`,
      // Triples share a createdAt: only (createdAt, id) orders them.
      createdAt: new Date(base + Math.floor(i / 3) * 1000).toISOString(),
    })),
  );
});

describe('following pagination.next', () => {
  it('sees every contact once in the default order, and says where it is', async () => {
    const { ids, pages } = await walk('limit=10');
    expect(ids).toEqual(await idsOrderedBy('"createdAt", id'));
    expect(pages).toHaveLength(10);
    expect(pages[0]!.pagination).toEqual({
      page: 1,
      limit: 10,
      total: TOTAL,
      pages: 10,
      totalExact: true,
      next: expect.any(String),
    });
    // Pages reached by cursor have no page number; the last has no next.
    expect(pages[1]!.pagination.page).toBeNull();
    expect(pages.at(-1)!.pagination).toMatchObject({ next: null, total: TOTAL });
    expect(pages.at(-1)!.data).toHaveLength(5);
  });

  it.each([
    ['-createdAt', '"createdAt" desc, id desc'],
    ['email', 'email, id'],
    ['-email', 'email desc, id desc'],
    // A column with nulls: last ascending, first descending, as the first page orders them.
    ['company', 'company, id'],
    ['-company', 'company desc, id desc'],
  ])('sees every contact once sorted by %s', async (sort, order) => {
    const { ids } = await walk(`limit=7&sort=${sort}`);
    expect(ids).toEqual(await idsOrderedBy(order));
  });

  it('sees every match of a filter once', async () => {
    const { ids, pages } = await walk('limit=4&company=Company%201');
    expect(ids).toEqual(await idsOrderedBy('"createdAt", id', `company = 'Company 1'`));
    expect(pages[0]!.pagination.total).toBe(ids.length);
  });

  it('gives the next page as a Link header that a client can follow', async () => {
    const first = await server.rest('GET', '/v1/crm/contacts?limit=30&page=1&sort=email', { key });
    const link = first.headers.get('link');
    expect(link).toMatch(/^<\/v1\/crm\/contacts\?[^>]*after=[^>]+>; rel="next"$/);
    const path = /^<([^>]+)>/.exec(link!)![1]!;
    expect(path).not.toMatch(/[?&]page=/);
    const second = await server.rest('GET', path, { key });
    expect(second.status).toBe(200);
    const expected = await idsOrderedBy('email, id');
    expect(second.body.data.map((row: { id: string }) => row.id)).toEqual(expected.slice(30, 60));
    const last = await server.rest('GET', '/v1/crm/contacts?limit=100', { key });
    expect(last.headers.get('link')).toBeNull();
  });

  it('neither skips nor repeats a contact added while paging', async () => {
    const first = await server.rest('GET', '/v1/crm/contacts?limit=50', { key });
    const added = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'late@example.com' },
    });
    expect(added.status).toBe(201);
    const rest = await walk(`limit=50&after=${encodeURIComponent(first.body.pagination.next)}`);
    const seen = [...first.body.data.map((row: { id: string }) => row.id), ...rest.ids];
    expect(seen).toEqual(await idsOrderedBy('"createdAt", id'));
    expect(seen.at(-1)).toBe(added.body.id);
  });
});

describe('a cursor belongs to its list', () => {
  it('is refused for another sort or filter, naming after', async () => {
    const first = await server.rest('GET', '/v1/crm/contacts?limit=5&sort=email', { key });
    const cursor = encodeURIComponent(first.body.pagination.next);
    for (const query of [`sort=-email&after=${cursor}`, `after=${cursor}`, `sort=email&company=X&after=${cursor}`]) {
      const res = await server.rest('GET', `/v1/crm/contacts?${query}`, { key });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'after' });
      expect(res.body.error.message).toMatch(/another list, sort or filter/);
    }
    const invoices = await server.rest('GET', `/v1/finance/invoices?after=${cursor}`, {
      key: await (await server.org()).key(['finance:read']),
    });
    expect(invoices.status).toBe(400);
  });

  it('refuses what is not a cursor, and page with after, as 400s', async () => {
    for (const after of ['x', 'bm90IGpzb24', Buffer.from('[1,"a",{},"b"]').toString('base64url'), 'a'.repeat(600)]) {
      const res = await server.rest('GET', `/v1/crm/contacts?after=${after}`, { key });
      expect(res.status, after).toBe(400);
      expect(res.body.error.field).toBe('after');
    }
    const first = await server.rest('GET', '/v1/crm/contacts?limit=5', { key });
    const both = await server.rest(
      'GET',
      `/v1/crm/contacts?page=2&after=${encodeURIComponent(first.body.pagination.next)}`,
      { key },
    );
    expect(both.status).toBe(400);
    expect(both.body.error.field).toBe('page');
  });

  it('reads only the caller organization, whatever the cursor says', async () => {
    const first = await server.rest('GET', '/v1/crm/contacts?limit=5', { key });
    const other = await server.org();
    const otherKey = await other.key(['crm:read']);
    const res = await server.rest(
      'GET',
      `/v1/crm/contacts?limit=5&after=${encodeURIComponent(first.body.pagination.next)}`,
      { key: otherKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toMatchObject({ total: 0, next: null });
  });
});

describe('GraphQL and the other lists', () => {
  it('pages contacts by after in GraphQL as REST does', async () => {
    const query = `query ($after: String) { contacts(limit: 40, sort: email_desc, after: $after) {
      data { id } pagination { page total totalExact next } } }`;
    const ids: string[] = [];
    let after: string | null = null;
    do {
      const res = await server.gql(query, { after }, { key });
      expect(res.errors).toBeUndefined();
      const page = (res.data as { contacts: Page }).contacts;
      ids.push(...page.data.map((row) => row.id));
      after = page.pagination.next as string | null;
    } while (after);
    expect(ids).toEqual(await idsOrderedBy('email desc, id desc'));
  });

  it('pages the events by after', async () => {
    const created = await server.org();
    const adminKey = await created.key(['admin']);
    for (let i = 0; i < 7; i++) {
      const res = await server.rest('POST', '/v1/crm/contacts', {
        key: adminKey,
        body: { email: `e${i}@example.com` },
      });
      expect(res.status).toBe(201);
    }
    const all = await server.rest('GET', '/v1/events?limit=100', { key: adminKey });
    const ids: string[] = [];
    let path: string | undefined = '/v1/events?limit=3';
    while (path) {
      const res = await server.rest('GET', path, { key: adminKey });
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((event: { id: string }) => event.id));
      path = /^<([^>]+)>/.exec(res.headers.get('link') ?? '')?.[1];
    }
    expect(ids).toEqual(all.body.data.map((event: { id: string }) => event.id));
    expect(ids.filter((id, i) => ids.indexOf(id) === i)).toHaveLength(ids.length);
    expect(all.body.data.filter((event: { type: string }) => event.type === 'contact.created')).toHaveLength(7);
  });
});

describe('a filter matching very many', () => {
  it('counts exactly up to 1,000 and then says the total is a lower bound', async () => {
    const created = await server.org();
    const manyKey = await created.key(['crm:read']);
    const base = Date.parse('2025-06-01T00:00:00.000Z');
    const rows = (count: number, company: string, from: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `con_${company.toLowerCase()}_${from + i}`,
        organizationId: created.id,
        email: `${company.toLowerCase()}${from + i}@example.com`,
        company,
        createdAt: new Date(base + (from + i) * 1000).toISOString(),
      }));
    await insertContacts([...rows(1_001, 'Common', 0), ...rows(1_000, 'Exact', 5_000), ...rows(20, 'Rare', 20_000)]);
    const common = await server.rest('GET', '/v1/crm/contacts?q=common&limit=10', { key: manyKey });
    expect(common.body.pagination).toMatchObject({ total: 1_000, totalExact: false, pages: 100 });
    expect(common.body.data).toHaveLength(10);
    const exact = await server.rest('GET', '/v1/crm/contacts?q=exact&limit=10', { key: manyKey });
    expect(exact.body.pagination).toMatchObject({ total: 1_000, totalExact: true, pages: 100 });
    const rare = await server.rest('GET', '/v1/crm/contacts?q=rare&limit=10', { key: manyKey });
    expect(rare.body.pagination).toMatchObject({ total: 20, totalExact: true, pages: 2 });
    // The unfiltered total is kept by the count triggers: always exact.
    const all = await server.rest('GET', '/v1/crm/contacts?limit=1', { key: manyKey });
    expect(all.body.pagination).toMatchObject({ total: 2_021, totalExact: true });
  });
});
