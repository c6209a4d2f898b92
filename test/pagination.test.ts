import 'reflect-metadata';
// Listing contacts page by page: defaults and limits of page/limit, the order a
// client can rely on when walking pages, sorting, filters, and GraphQL agreeing
// with REST on the numbers.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';

interface Seed {
  id: string;
  organizationId: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  company: string | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

const TOTAL = 120;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let org: string;
let key: string;
let seeds: Seed[];
/** The order the API promises: createdAt ascending, then id. */
let expectedIds: string[];

function byCreatedThenId(a: Seed, b: Seed): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function idsInOrder(filter: (seed: Seed) => boolean): string[] {
  return [...seeds]
    .filter(filter)
    .sort(byCreatedThenId)
    .map((seed) => seed.id);
}

function makeSeeds(organizationId: string): Seed[] {
  const base = Date.parse('2024-03-01T00:00:00.000Z');
  const list = Array.from({ length: TOTAL }, (_, i): Seed => {
    // Pairs share a createdAt, and ids run against creation order, so only
    // "createdAt then id" gives the expected sequence.
    const createdAt = new Date(base + Math.floor(i / 2) * 1000);
    return {
      id: `con_${pad(999 - i, 4)}`,
      organizationId,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      // A permutation of 0..119, so email order differs from creation order.
      email: `c${pad((i * 37) % TOTAL, 3)}@example.com`,
      company: i % 3 === 0 ? 'Acme' : i % 3 === 1 ? 'Globex' : null,
      tags: i % 4 === 0 ? ['vip'] : i % 4 === 1 ? ['vip', 'lead'] : [],
      createdAt,
      updatedAt: createdAt,
    };
  });
  list[10]!.firstName = 'Grace';
  list[10]!.lastName = 'Hopper';
  list[11]!.lastName = 'HOPPERTON';
  list[12]!.email = 'hopper@example.com';
  list[13]!.company = 'Hopper Industries';
  list[14]!.company = 'Acme Ltd';
  list[15]!.tags = ['vipper'];
  list[16]!.company = '100% Cotton';
  list[17]!.email = 'under_score@example.com';
  return list;
}

/** Contacts written as they are (their times included), in SQL. */
async function insertContacts(rows: Seed[]) {
  await server.prisma.$executeRaw`
    insert into "Contact" (id, "organizationId", "firstName", "lastName", email, company, tags, "createdAt", "updatedAt")
    select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as c(id text, "organizationId" text,
      "firstName" text, "lastName" text, email text, company text, tags text[], "createdAt" timestamptz, "updatedAt" timestamptz)`;
}

async function list(query: string, withKey = key) {
  return server.rest('GET', `/v1/crm/contacts${query}`, { key: withKey });
}

beforeAll(async () => {
  const created = await server.org();
  org = created.id;
  key = await created.key(['crm:read', 'crm:write']);
  seeds = makeSeeds(org);
  await insertContacts(seeds);
  expectedIds = idsInOrder(() => true);

  // Another organization's contacts must never count.
  const other = (await server.org()).id;
  const now = new Date();
  await insertContacts(
    Array.from({ length: 7 }, (_, i) => ({
      id: `con_other_${i}`,
      organizationId: other,
      email: `other${i}@example.com`,
      company: 'Acme',
      tags: ['vip'],
      firstName: 'Hopper',
      lastName: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
});

describe('page and limit', () => {
  it('defaults to page 1 and limit 50, with the pagination arithmetic', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 50,
      total: TOTAL,
      pages: 3,
      totalExact: true,
      next: expect.any(String),
    });
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(expectedIds.slice(0, 50));
  });

  it('returns the remainder on the last page', async () => {
    const res = await list('?page=3&limit=50');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 3, limit: 50, total: TOTAL, pages: 3, totalExact: true, next: null });
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(expectedIds.slice(100));
  });

  it('returns each contact in its public shape', async () => {
    const res = await list('?limit=1');
    const first = seeds.find((seed) => seed.id === expectedIds[0])!;
    expect(res.body.data[0]).toEqual({
      id: first.id,
      firstName: first.firstName,
      lastName: first.lastName,
      email: first.email,
      company: first.company,
      phone: null,
      tags: first.tags,
      paymentTermsDays: null,
      createdAt: first.createdAt.toISOString(),
      updatedAt: first.updatedAt.toISOString(),
    });
  });

  it('accepts limit=100, the maximum', async () => {
    const res = await list('?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 100,
      total: TOTAL,
      pages: 2,
      totalExact: true,
      next: expect.any(String),
    });
  });

  it('answers a page past the end with empty data and the true pagination', async () => {
    const res = await list('?page=4&limit=50');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ page: 4, limit: 50, total: TOTAL, pages: 3, totalExact: true, next: null });

    const far = await list('?page=1000&limit=7');
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
    expect(far.body.pagination).toEqual({
      page: 1000,
      limit: 7,
      total: TOTAL,
      pages: 18,
      totalExact: true,
      next: null,
    });
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=ten', 'limit'],
  ])('rejects %s with 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('names the field when page is beyond any integer the service can page to', async () => {
    for (const page of ['3000000000', '99999999999999999999']) {
      const res = await list(`?page=${page}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });
    }
  });

  it('rejects a repeated parameter with 400, not 500', async () => {
    const limit = await list('?limit=1&limit=2');
    expect(limit.status).toBe(400);
    expect(limit.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });

    const page = await list('?page=1&page=2');
    expect(page.status).toBe(400);
    expect(page.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });

    const email = await list('?email=a@example.com&email=b@example.com');
    expect(email.status).toBe(400);
    expect(email.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
  });
});

describe('order', () => {
  it('walks every contact exactly once, createdAt ascending then id, with limit 7', async () => {
    const walked: string[] = [];
    const first = await list('?limit=7');
    expect(first.body.pagination).toEqual({
      page: 1,
      limit: 7,
      total: TOTAL,
      pages: 18,
      totalExact: true,
      next: expect.any(String),
    });
    for (let page = 1; page <= first.body.pagination.pages; page++) {
      const res = await list(`?limit=7&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({
        page,
        limit: 7,
        total: TOTAL,
        pages: 18,
        totalExact: true,
        next: page < 18 ? expect.any(String) : null,
      });
      expect(res.body.data.length).toBe(page < 18 ? 7 : TOTAL - 17 * 7);
      walked.push(...res.body.data.map((c: { id: string }) => c.id));
    }
    expect(new Set(walked).size).toBe(TOTAL);
    expect(walked).toEqual(expectedIds);
  });

  it('gives the same answer when asked twice', async () => {
    const a = await list('?limit=13&page=4');
    const b = await list('?limit=13&page=4');
    expect(a.body).toEqual(b.body);
  });

  it('sort=createdAt is the default order', async () => {
    const res = await list('?sort=createdAt&limit=100&page=1');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(expectedIds.slice(0, 100));
  });

  it('sort=-createdAt reverses the order', async () => {
    const walked: string[] = [];
    for (const page of [1, 2]) {
      const res = await list(`?sort=-createdAt&limit=100&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({
        page,
        limit: 100,
        total: TOTAL,
        pages: 2,
        totalExact: true,
        next: page < 2 ? expect.any(String) : null,
      });
      walked.push(...res.body.data.map((c: { id: string }) => c.id));
    }
    expect(walked).toEqual([...expectedIds].reverse());
  });

  it('sort=email sorts by email, across pages', async () => {
    const walked: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await list(`?sort=email&limit=50&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({
        page,
        limit: 50,
        total: TOTAL,
        pages: 3,
        totalExact: true,
        next: page < 3 ? expect.any(String) : null,
      });
      walked.push(...res.body.data.map((c: { email: string }) => c.email));
    }
    expect(walked).toEqual(seeds.map((seed) => seed.email).sort());
  });

  it('sort=-email sorts by email descending', async () => {
    const res = await list('?sort=-email&limit=5');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { email: string }) => c.email)).toEqual(
      seeds
        .map((seed) => seed.email)
        .sort()
        .reverse()
        .slice(0, 5),
    );
  });

  it('sort=company sorts by company, ties by id, empty companies together at one end', async () => {
    const walked: { id: string; company: string | null }[] = [];
    for (const page of [1, 2]) {
      const res = await list(`?sort=company&limit=100&page=${page}`);
      expect(res.status).toBe(200);
      walked.push(...res.body.data);
    }
    expect(walked.map((c) => c.id).sort()).toEqual([...expectedIds].sort());
    const named = walked.filter((c) => c.company !== null);
    const nulls = walked.map((c, index) => (c.company === null ? index : -1)).filter((index) => index >= 0);
    expect(nulls.length).toBe(seeds.filter((seed) => seed.company === null).length);
    // The empty companies are contiguous, at the start or the end.
    expect(nulls[0] === 0 || nulls.at(-1) === walked.length - 1).toBe(true);
    expect(nulls.at(-1)! - nulls[0]!).toBe(nulls.length - 1);
    const expectedNamed = seeds
      .filter((seed) => seed.company !== null)
      .sort((a, b) => (a.company! < b.company! ? -1 : a.company! > b.company! ? 1 : a.id < b.id ? -1 : 1))
      .map((seed) => seed.id);
    expect(named.map((c) => c.id)).toEqual(expectedNamed);
  });

  it('rejects an unknown sort field with 400 naming sort', async () => {
    for (const sort of ['bogus', '-bogus', 'organizationId', '--email']) {
      const res = await list(`?sort=${sort}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'sort' });
    }
  });
});

describe('filters', () => {
  it('email matches exactly, whatever its case', async () => {
    const target = seeds[37]!;
    const res = await list(`?email=${encodeURIComponent(target.email.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([target.id]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 1, pages: 1, totalExact: true, next: null });

    // Exact, not a prefix or substring.
    const prefix = await list(`?email=${encodeURIComponent(target.email.slice(0, 3))}`);
    expect(prefix.status).toBe(200);
    expect(prefix.body.data).toEqual([]);
    expect(prefix.body.pagination).toEqual({ page: 1, limit: 50, total: 0, pages: 0, totalExact: true, next: null });
  });

  it('company matches the whole name, whatever its case', async () => {
    const expected = idsInOrder((seed) => seed.company === 'Acme');
    expect(expected.length).toBeGreaterThan(30);
    for (const company of ['Acme', 'ACME']) {
      const res = await list(`?company=${company}&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(expected);
      expect(res.body.pagination.total).toBe(expected.length);
    }
  });

  it('tag matches contacts carrying that exact tag', async () => {
    const expected = idsInOrder((seed) => seed.tags.includes('lead'));
    const res = await list('?tag=lead&limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(expected);
    expect(res.body.pagination).toEqual({
      page: 1,
      limit: 100,
      total: expected.length,
      pages: 1,
      totalExact: true,
      next: null,
    });

    const vip = await list('?tag=vip&limit=100');
    expect(vip.body.pagination.total).toBe(seeds.filter((seed) => seed.tags.includes('vip')).length);
    expect(vip.body.data.map((c: { id: string }) => c.id)).not.toContain(seeds[15]!.id);
  });

  it('q searches first name, last name, email and company, ignoring case', async () => {
    const expected = [seeds[10]!, seeds[11]!, seeds[12]!, seeds[13]!].sort(byCreatedThenId).map((seed) => seed.id);
    for (const q of ['hopper', 'HoPPeR']) {
      const res = await list(`?q=${q}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(expected);
      expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 4, pages: 1, totalExact: true, next: null });
    }
    const none = await list('?q=nobody-matches-this');
    expect(none.status).toBe(200);
    expect(none.body.pagination).toEqual({ page: 1, limit: 50, total: 0, pages: 0, totalExact: true, next: null });
  });

  it('q matches % and _ literally, not as wildcards', async () => {
    const percent = await list('?q=%25');
    expect(percent.status).toBe(200);
    expect(percent.body.data.map((c: { id: string }) => c.id)).toEqual([seeds[16]!.id]);
    expect(percent.body.pagination.total).toBe(1);

    const underscore = await list('?q=_');
    expect(underscore.status).toBe(200);
    expect(underscore.body.data.map((c: { id: string }) => c.id)).toEqual([seeds[17]!.id]);

    // 'c0_0' is in no contact; as a LIKE pattern it would match c000, c010, ...
    const pattern = await list('?q=c0_0');
    expect(pattern.status).toBe(200);
    expect(pattern.body.pagination.total).toBe(0);
  });

  it('filters combine with each other and with pagination totals', async () => {
    const vip = idsInOrder((seed) => seed.tags.includes('vip'));
    expect(vip.length).toBe(60);
    const page2 = await list('?tag=vip&limit=20&page=2');
    expect(page2.status).toBe(200);
    expect(page2.body.pagination).toEqual({
      page: 2,
      limit: 20,
      total: 60,
      pages: 3,
      totalExact: true,
      next: expect.any(String),
    });
    expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual(vip.slice(20, 40));

    const both = idsInOrder((seed) => seed.company === 'Acme' && seed.tags.includes('lead'));
    const res = await list('?company=Acme&tag=lead&limit=3&page=2');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({
      page: 2,
      limit: 3,
      total: both.length,
      pages: Math.ceil(both.length / 3),
      totalExact: true,
      next: 2 < Math.ceil(both.length / 3) ? expect.any(String) : null,
    });
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(both.slice(3, 6));
  });

  it('sort combines with filters', async () => {
    const vip = idsInOrder((seed) => seed.tags.includes('vip'));
    const sorted = await list('?tag=vip&sort=-createdAt&limit=10');
    expect(sorted.status).toBe(200);
    expect(sorted.body.data.map((c: { id: string }) => c.id)).toEqual([...vip].reverse().slice(0, 10));
  });
});

describe('an organization without contacts', () => {
  it('answers an empty list with total 0 and pages 0', async () => {
    const emptyKey = await (await server.org()).key(['crm:read']);
    const res = await list('', emptyKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [],
      pagination: { page: 1, limit: 50, total: 0, pages: 0, totalExact: true, next: null },
    });
    const page2 = await list('?page=2&limit=10', emptyKey);
    expect(page2.status).toBe(200);
    expect(page2.body).toEqual({
      data: [],
      pagination: { page: 2, limit: 10, total: 0, pages: 0, totalExact: true, next: null },
    });
  });
});

describe('GraphQL contacts(page, limit)', () => {
  const graphql = (query: string) => server.gql(query, undefined, { key });

  it('returns the same pagination numbers and items as REST', async () => {
    for (const [page, limit] of [
      [1, 50],
      [3, 50],
      [2, 7],
      [4, 50],
    ] as const) {
      const gql = await graphql(
        `{ contacts(page: ${page}, limit: ${limit}) { data { id } pagination { page limit total pages totalExact next } } }`,
      );
      expect(gql.status).toBe(200);
      expect(gql.body.errors).toBeUndefined();
      const rest = await list(`?page=${page}&limit=${limit}`);
      expect(gql.body.data.contacts.pagination).toEqual(rest.body.pagination);
      expect(gql.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual(
        rest.body.data.map((c: { id: string }) => c.id),
      );
    }
  });

  it('applies the same defaults and limits', async () => {
    const defaults = await graphql('{ contacts { pagination { page limit total pages totalExact next } } }');
    expect(defaults.body.data.contacts.pagination).toEqual({
      page: 1,
      limit: 50,
      total: TOTAL,
      pages: 3,
      totalExact: true,
      next: expect.any(String),
    });

    const tooMany = await graphql('{ contacts(limit: 101) { pagination { total } } }');
    expect(tooMany.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });

    const pageZero = await graphql('{ contacts(page: 0) { pagination { total } } }');
    expect(pageZero.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });
  });
});
