import 'reflect-metadata';
// Per-credential rate limits as an integrator sees them: RateLimit-* headers on
// every answer, 429 RATE_LIMIT_EXCEEDED with retryAfter and Retry-After once the
// budget is spent, and one budget shared by every server process.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, useServerPair, type ServerFixture, type TestOrg, type TestResponse } from './support/fixtures.js';

const REDIS_URL = process.env.REDIS_URL;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function header(res: TestResponse, name: string): number {
  const value = res.headers.get(name);
  expect(value, `${name} header`).toMatch(/^\d+$/);
  return Number(value);
}

/** The RateLimit-* headers every /v1 answer to a credential carries. */
function expectRateLimitHeaders(res: TestResponse, limit: number, windowSeconds: number) {
  expect(header(res, 'RateLimit-Limit')).toBe(limit);
  const remaining = header(res, 'RateLimit-Remaining');
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThan(limit);
  const reset = header(res, 'RateLimit-Reset');
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(windowSeconds);
  return { remaining, reset };
}

/** A 429 in the specification's envelope, with Retry-After equal to retryAfter. */
function expectRateLimited(res: TestResponse, limit: number, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), retryAfter: expect.any(Number) },
  });
  const retryAfter = res.body.error.retryAfter as number;
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.headers.get('Retry-After')).toBe(String(retryAfter));
  const { remaining } = expectRateLimitHeaders(res, limit, windowSeconds);
  expect(remaining).toBe(0);
  return retryAfter;
}

const list = (server: ServerFixture, key: string) => server.rest('GET', '/v1/crm/contacts?limit=1', { key });

describe('a budget of 5 requests per 60 s', () => {
  const server = useServer({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60' });
  let org: TestOrg;

  beforeAll(async () => {
    org = await server.org();
  });

  it('counts every answer down in RateLimit-* headers, then answers 429 with retryAfter and Retry-After', async () => {
    const key = await org.key(['crm:read', 'crm:write']);
    const answers = [
      await list(server, key),
      await server.rest('GET', '/v1/crm/contacts/con_missing', { key }),
      await server.rest('POST', '/v1/crm/contacts', { key, body: { firstName: 'No email' } }),
      await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'counted@example.com' } }),
      await list(server, key),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 400, 201, 200]);
    const remaining = answers.map((res) => expectRateLimitHeaders(res, 5, 60).remaining);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const sixth = await list(server, key);
    const retryAfter = expectRateLimited(sixth, 5, 60);
    // Retry-After tells the truth about the window the headers describe.
    expect(retryAfter).toBe(header(sixth, 'RateLimit-Reset'));

    // Still limited, whatever the method or path, and a refused write changes nothing.
    const refusedWrite = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'refused@example.com' },
    });
    expectRateLimited(refusedWrite, 5, 60);
    expectRateLimited(await server.rest('GET', '/v1/events', { key }), 5, 60);

    const otherKey = await org.key(['crm:read']);
    const check = await server.rest('GET', '/v1/crm/contacts?email=refused@example.com', { key: otherKey });
    expect(check.status).toBe(200);
    expect(check.body.data).toEqual([]);
  });

  it('keeps a separate budget for each credential, even within one organization', async () => {
    const spent = await org.key(['crm:read']);
    for (let i = 0; i < 5; i++) expect((await list(server, spent)).status).toBe(200);
    expectRateLimited(await list(server, spent), 5, 60);

    const sibling = await org.key(['crm:read']);
    const res = await list(server, sibling);
    expect(res.status).toBe(200);
    expect(expectRateLimitHeaders(res, 5, 60).remaining).toBe(4);

    const stranger = await (await server.org()).key(['crm:read']);
    const strangerRes = await list(server, stranger);
    expect(strangerRes.status).toBe(200);
    expect(expectRateLimitHeaders(strangerRes, 5, 60).remaining).toBe(4);

    // And the spent key is still refused.
    expectRateLimited(await list(server, spent), 5, 60);
  });

  it('charges requests without a valid credential to their client address, not to any credential', async () => {
    const key = await org.key(['crm:read']);
    // The address's own budget (RATE_LIMIT_UNAUTHENTICATED_MAX, by default RATE_LIMIT_MAX): 5, then 429.
    for (let i = 0; i < 5; i++) {
      const res = await server.rest('GET', '/v1/crm/contacts', { key: 'bpk_not_a_real_key' });
      expect(res.status).toBe(401);
    }
    expectRateLimited(await server.rest('GET', '/v1/crm/contacts', { key: 'bpk_not_a_real_key' }), 5, 60);
    const res = await list(server, key);
    expect(res.status).toBe(200);
    expect(expectRateLimitHeaders(res, 5, 60).remaining).toBe(4);
  });

  it('refuses exactly the requests over budget when they arrive all at once', async () => {
    const key = await org.key(['crm:read']);
    const answers = await Promise.all(Array.from({ length: 12 }, () => list(server, key)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const remaining = answers.filter((res) => res.status === 200).map((res) => header(res, 'RateLimit-Remaining'));
    expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4]);
    for (const res of answers.filter((r) => r.status === 429)) expectRateLimited(res, 5, 60);
  });
});

describe('a large budget on one server', () => {
  const LIMIT = 1000;
  const server = useServer({ RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_S: '60' });
  let key: string;

  beforeAll(async () => {
    key = await (await server.org()).key(['crm:read']);
  });

  it('admits the whole budget when the first requests arrive together, and not one more', async () => {
    const burst = await Promise.all(Array.from({ length: 50 }, () => list(server, key)));
    expect(burst.map((res) => res.status)).toEqual(Array(50).fill(200));
    const remaining = burst.map((res) => expectRateLimitHeaders(res, LIMIT, 60).remaining);
    expect(new Set(remaining).size).toBe(50);
    // Each answer tells the budget as it is: 50 spent, the rest still there.
    expect.soft(Math.max(...remaining)).toBeLessThanOrEqual(LIMIT - 1);
    expect.soft(Math.min(...remaining)).toBeGreaterThanOrEqual(LIMIT - 50);

    let admitted = burst.length;
    let refused: TestResponse | undefined;
    const misreported: string[] = [];
    for (let i = 0; i <= LIMIT && !refused; i++) {
      const res = await list(server, key);
      if (res.status === 200) {
        admitted++;
        const remaining = expectRateLimitHeaders(res, LIMIT, 60).remaining;
        if (remaining !== LIMIT - admitted) misreported.push(`after ${admitted}: ${remaining}`);
      } else refused = res;
    }
    expect.soft(misreported.slice(0, 3), 'RateLimit-Remaining after each sequential request').toEqual([]);
    expect(admitted).toBe(LIMIT);
    expectRateLimited(refused!, LIMIT, 60);
  }, 90_000);
});

describe('a new window', () => {
  const server = useServer({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '1' });
  let key: string;

  beforeAll(async () => {
    key = await (await server.org()).key(['crm:read']);
  });

  it('admits requests again once Retry-After seconds have passed, with a full budget', async () => {
    expect((await list(server, key)).status).toBe(200);
    expect((await list(server, key)).status).toBe(200);
    const refused = await list(server, key);
    const retryAfter = expectRateLimited(refused, 2, 1);
    expect(retryAfter).toBe(1);

    await sleep(retryAfter * 1000 + 250);
    const again = await list(server, key);
    expect(again.status).toBe(200);
    expect(expectRateLimitHeaders(again, 2, 1).remaining).toBe(1);
    expect((await list(server, key)).status).toBe(200);
    expectRateLimited(await list(server, key), 2, 1);
  });
});

/** Two server processes' worth of service over one database (and Redis when given). */
function sharedBudgetSuite(title: string, extraEnv: Record<string, string>) {
  describe(title, () => {
    const [a, b] = useServerPair({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60', ...extraEnv });
    let org: TestOrg;

    beforeAll(async () => {
      org = await a.org();
    });

    it('admits exactly 5 of 3 + 3 sequential requests spread over both servers', async () => {
      const key = await org.key(['crm:read']);
      const answers: TestResponse[] = [];
      for (const server of [a, a, a, b, b, b]) answers.push(await list(server, key));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.slice(0, 5).map((res) => expectRateLimitHeaders(res, 5, 60).remaining)).toEqual([4, 3, 2, 1, 0]);
      expectRateLimited(answers[5]!, 5, 60);
      // The first server learns that the budget is gone, too.
      expectRateLimited(await list(a, key), 5, 60);
      expectRateLimited(await list(b, key), 5, 60);
    });

    it('admits exactly 5 of 6 requests alternating between the servers', async () => {
      const key = await org.key(['crm:read']);
      const answers: TestResponse[] = [];
      for (const server of [a, b, a, b, a, b]) answers.push(await list(server, key));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.slice(0, 5).map((res) => expectRateLimitHeaders(res, 5, 60).remaining)).toEqual([4, 3, 2, 1, 0]);
      expectRateLimited(answers[5]!, 5, 60);
      expectRateLimited(await list(a, key), 5, 60);
    });

    it('admits exactly 5 of 3 + 3 concurrent requests to both servers', async () => {
      const key = await org.key(['crm:read']);
      const answers = await Promise.all([a, a, a, b, b, b].map((server) => list(server, key)));
      expect(answers.filter((res) => res.status === 200)).toHaveLength(5);
      expect(answers.filter((res) => res.status === 429)).toHaveLength(1);
      const remaining = answers.filter((res) => res.status === 200).map((res) => header(res, 'RateLimit-Remaining'));
      expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4]);
      expectRateLimited(await list(a, key), 5, 60);
      expectRateLimited(await list(b, key), 5, 60);
    });

    it('admits exactly 5 of 20 concurrent requests to both servers', async () => {
      const key = await org.key(['crm:read']);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => list(i % 2 ? b : a, key)));
      expect(answers.filter((res) => res.status === 200)).toHaveLength(5);
      for (const res of answers.filter((r) => r.status === 429)) expectRateLimited(res, 5, 60);
    });
  });
}

sharedBudgetSuite('one budget shared by two servers on one database (PostgreSQL store)', {});

describe.skipIf(!REDIS_URL)('with REDIS_URL', () => {
  sharedBudgetSuite('one budget shared by two servers (Redis store)', { REDIS_URL: REDIS_URL ?? '' });
});

describe('a burst against a large budget on two servers', () => {
  const LIMIT = 1000;
  const [a, b] = useServerPair({ RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_S: '60' });
  let key: string;

  beforeAll(async () => {
    key = await (await a.org()).key(['crm:read']);
  });

  async function burst(count: number) {
    const servers = Array.from({ length: count }, (_, i) => (i % 2 ? b : a));
    const answers = await Promise.all(servers.map((server) => list(server, key)));
    return answers.map((res, i) => ({ res, server: servers[i]! }));
  }

  /** Within one server, each admitted request is told a different, lower remaining count. */
  function expectConsistentRemaining(answers: { res: TestResponse; server: ServerFixture }[]) {
    for (const server of [a, b]) {
      const remaining = answers
        .filter((answer) => answer.server === server && answer.res.status === 200)
        .map((answer) => expectRateLimitHeaders(answer.res, LIMIT, 60).remaining);
      expect(new Set(remaining).size).toBe(remaining.length);
    }
    for (const { res } of answers.filter((answer) => answer.res.status === 429)) expectRateLimited(res, LIMIT, 60);
  }

  it('admits all 300 concurrent requests that fit the budget, then never more than the budget', async () => {
    const first = await burst(300);
    expect(first.filter(({ res }) => res.status !== 200).map(({ res }) => res.status)).toEqual([]);
    expectConsistentRemaining(first);

    const second = await burst(900);
    expectConsistentRemaining(second);
    const admittedInBursts = [...first, ...second].filter(({ res }) => res.status === 200).length;
    expect(admittedInBursts).toBeLessThanOrEqual(LIMIT);
    expect(second.filter(({ res }) => res.status === 429).length).toBeGreaterThan(0);

    // Points a server still holds may be spent there, but only up to the budget:
    // once both servers refuse, exactly LIMIT requests have been admitted in all.
    let drained = 0;
    for (const server of [a, b]) {
      for (let i = 0; i <= LIMIT; i++) {
        const res = await list(server, key);
        if (res.status === 429) {
          expectRateLimited(res, LIMIT, 60);
          break;
        }
        expect(res.status).toBe(200);
        drained++;
      }
    }
    expect(admittedInBursts + drained).toBe(LIMIT);
    expectRateLimited(await list(a, key), LIMIT, 60);
    expectRateLimited(await list(b, key), LIMIT, 60);
  }, 90_000);
});

describe('GraphQL shares the budget', () => {
  const server = useServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' });

  it('counts /graphql and /v1 against one budget and answers 429 in GraphQL shape', async () => {
    const key = await (await server.org()).key(['crm:read']);
    const query = '{ contacts { pagination { total } } }';
    const first = await server.gql(query, undefined, { key });
    expect(first.status).toBe(200);
    expect(first.body.data.contacts.pagination.total).toBe(0);
    expectRateLimitHeaders(first, 3, 60);
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);
    expect((await server.gql(query, undefined, { key })).status).toBe(200);

    const limited = await server.gql(query, undefined, { key });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].extensions).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      retryAfter: expect.any(Number),
    });
    expect(limited.headers.get('retry-after')).toBe(String(limited.body.errors[0].extensions.retryAfter));
    expectRateLimited(await server.rest('GET', '/v1/crm/contacts', { key }), 3, 60);
  });
});
