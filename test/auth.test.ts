// Authentication and scopes as an API client sees them: 401 with
// WWW-Authenticate for every bad credential, revocation that takes effect at
// once in every server process, and 403 naming the scope that is missing.
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/auth/secrets.js';
import { useServer, useServerPair, type ServerFixture, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer();
let org: TestOrg;
let key: string;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['crm:read', 'crm:write']);
});

async function keyId(s: ServerFixture, bearer: string): Promise<string> {
  const row = await s.prisma.apiKey.findUnique({ where: { keyHash: sha256Hex(bearer) } });
  expect(row).not.toBeNull();
  return row!.id;
}

/** Repeats `attempt` until `done` holds or `timeoutMs` passes; returns the last result. */
async function poll<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function expectUnauthorized(res: TestResponse): void {
  expect(res.status, res.text).toBe(401);
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  expect(res.body.error.message.length).toBeGreaterThan(0);
}

function expectForbidden(res: TestResponse, scope: string): void {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error).toMatchObject({ code: 'FORBIDDEN' });
  expect(res.body.error.message).toContain(scope);
}

const contactsList = (s: ServerFixture, headers: Record<string, string>) =>
  s.rest('GET', '/v1/crm/contacts', { headers });

describe('401 UNAUTHORIZED', () => {
  const requests: [string, string, unknown][] = [
    ['GET', '/v1/crm/contacts', undefined],
    ['POST', '/v1/crm/contacts', { email: 'anon@example.com' }],
    ['GET', '/v1/crm/contacts/con_x', undefined],
    ['PUT', '/v1/crm/contacts/con_x', { company: 'X' }],
    ['DELETE', '/v1/crm/contacts/con_x', undefined],
    ['GET', '/v1/events', undefined],
  ];

  it.each(requests)('%s %s without an Authorization header', async (method, path, body) => {
    expectUnauthorized(await server.rest(method, path, { body }));
  });

  it('a non-Bearer scheme (Basic)', async () => {
    expectUnauthorized(
      await contactsList(server, { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }),
    );
    expectUnauthorized(await contactsList(server, { authorization: `Token ${key}` }));
    // The key alone, without a scheme.
    expectUnauthorized(await contactsList(server, { authorization: key }));
  });

  it('a malformed Bearer header', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `Bearer ${key} ${key}`,
      `Bearer${key}`,
      `Bearer ${key}!`,
      'Bearer bpk_bad\u00e9',
      `Bearer "${key}"`,
    ]) {
      const res = await contactsList(server, { authorization });
      expectUnauthorized(res);
    }
  });

  it('an unknown key, or a token that is not a key', async () => {
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: 'bpk_' + 'A'.repeat(40) }));
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: key.slice(0, -1) }));
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: 'not_a_key_at_all' }));
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: 'bps_' + 'A'.repeat(40) }));
  });

  it('an expired key', async () => {
    const expired = await org.key(['admin'], { expiresAt: new Date(Date.now() - 60_000) });
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: expired }));
    expectUnauthorized(
      await server.rest('POST', '/v1/crm/contacts', { key: expired, body: { email: 'expired@example.com' } }),
    );
    const check = await server.rest('GET', '/v1/crm/contacts?email=expired@example.com', { key });
    expect(check.body.pagination.total).toBe(0);
  });

  it('a key that expires while cached stops working at its expiry', async () => {
    const expiresAt = new Date(Date.now() + 1500);
    const shortLived = await org.key(['crm:read'], { expiresAt });
    expect((await server.rest('GET', '/v1/crm/contacts', { key: shortLived })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: shortLived }));
  });

  it('a revoked key, at once, even though it was just used', async () => {
    const doomed = await org.key(['crm:read', 'crm:write']);
    const other = await org.key(['crm:read']);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: doomed })).status).toBe(200);

    const revoked = await server.revokeKey(await keyId(server, doomed));
    expect(revoked?.revokedAt).toEqual(expect.any(String));

    const res = await poll(
      () => server.rest('GET', '/v1/crm/contacts', { key: doomed }),
      (r) => r.status === 401,
    );
    expectUnauthorized(res);
    expectUnauthorized(
      await server.rest('POST', '/v1/crm/contacts', { key: doomed, body: { email: 'revoked@example.com' } }),
    );
    // Other keys of the organization are not affected.
    expect((await server.rest('GET', '/v1/crm/contacts', { key: other })).status).toBe(200);
  });

  it('the Bearer scheme name is case-insensitive', async () => {
    const res = await contactsList(server, { authorization: `bearer ${key}` });
    expect(res.status).toBe(200);
  });

  it('a key that expires in the future works', async () => {
    const later = await org.key(['crm:read'], { expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await server.rest('GET', '/v1/crm/contacts', { key: later })).status).toBe(200);
  });
});

describe('key lookups', () => {
  it('records lastUsedAt after a use', async () => {
    const fresh = await org.key(['crm:read']);
    const id = await keyId(server, fresh);
    expect((await server.prisma.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();

    const before = Date.now();
    expect((await server.rest('GET', '/v1/crm/contacts', { key: fresh })).status).toBe(200);
    const row = await poll(
      () => server.prisma.apiKey.findUniqueOrThrow({ where: { id } }),
      (r) => r.lastUsedAt !== null,
    );
    expect(row.lastUsedAt).not.toBeNull();
    // Timestamps are stored to the millisecond.
    expect(row.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(row.lastUsedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('records lastUsedAt for a GraphQL use too', async () => {
    const fresh = await org.key(['crm:read']);
    const id = await keyId(server, fresh);
    const res = await server.gql('{ contacts { data { id } } }', undefined, { key: fresh });
    expect(res.body.errors, res.text).toBeUndefined();
    const row = await poll(
      () => server.prisma.apiKey.findUniqueOrThrow({ where: { id } }),
      (r) => r.lastUsedAt !== null,
    );
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('does not record use of a rejected key', async () => {
    const expired = await org.key(['crm:read'], { expiresAt: new Date(Date.now() - 1000) });
    const id = await keyId(server, expired);
    expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: expired }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await server.prisma.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
  });
});

describe('revocation across server processes', () => {
  const [first, second] = useServerPair();

  it('both servers share the database: a key made through one works on the other', async () => {
    const sharedOrg = await first.org();
    const shared = await sharedOrg.key(['crm:read', 'crm:write']);
    const created = await first.rest('POST', '/v1/crm/contacts', { key: shared, body: { email: 'x@example.com' } });
    expect(created.status).toBe(201);
    const read = await second.rest('GET', `/v1/crm/contacts/${created.body.id}`, { key: shared });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('caches a key after its first use: a change made behind its back (no NOTIFY) is seen only by a process without it', async () => {
    const sharedOrg = await first.org();
    const cached = await sharedOrg.key(['crm:read']);
    expect((await first.rest('GET', '/v1/crm/contacts', { key: cached })).status).toBe(200);
    // Revoke in the database without the NOTIFY that revocation sends: only a
    // cache explains a server that still accepts the key.
    await first.prisma.apiKey.update({ where: { id: await keyId(first, cached) }, data: { revokedAt: new Date() } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await first.rest('GET', '/v1/crm/contacts', { key: cached })).status).toBe(200);
    // The second process never saw the key, so it reads the database and refuses it.
    expectUnauthorized(await second.rest('GET', '/v1/crm/contacts', { key: cached }));
  });

  it('a key revoked through one server is refused by both, well before the cache would expire', async () => {
    const sharedOrg = await first.org();
    const doomed = await sharedOrg.key(['crm:read', 'crm:write']);
    const survivor = await sharedOrg.key(['crm:read']);

    // Both servers use (and so cache) the key.
    for (const s of [first, second]) {
      expect((await s.rest('GET', '/v1/crm/contacts', { key: doomed })).status).toBe(200);
      expect((await s.rest('GET', '/v1/crm/contacts', { key: doomed })).status).toBe(200);
      const gql = await s.gql('{ contacts { data { id } } }', undefined, { key: doomed });
      expect(gql.body.errors, gql.text).toBeUndefined();
    }

    const revokedAt = Date.now();
    await first.revokeKey(await keyId(first, doomed));

    for (const s of [first, second]) {
      const res = await poll(
        () => s.rest('GET', '/v1/crm/contacts', { key: doomed }),
        (r) => r.status === 401,
      );
      expectUnauthorized(res);
    }
    // NOTIFY is asynchronous, but arrives in milliseconds, not at the 60 s cache TTL.
    expect(Date.now() - revokedAt).toBeLessThan(2500);

    for (const s of [first, second]) {
      expectUnauthorized(
        await s.rest('POST', '/v1/crm/contacts', { key: doomed, body: { email: 'after@example.com' } }),
      );
      const gql = await s.gql('{ contacts { data { id } } }', undefined, { key: doomed });
      expect(gql.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
      expect((await s.rest('GET', '/v1/crm/contacts', { key: survivor })).status).toBe(200);
    }
  });

  it('a key revoked through the second server is refused by the first', async () => {
    const sharedOrg = await second.org();
    const doomed = await sharedOrg.key(['crm:read']);
    expect((await first.rest('GET', '/v1/crm/contacts', { key: doomed })).status).toBe(200);
    await second.revokeKey(await keyId(second, doomed));
    const started = Date.now();
    const res = await poll(
      () => first.rest('GET', '/v1/crm/contacts', { key: doomed }),
      (r) => r.status === 401,
    );
    expectUnauthorized(res);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});

describe('scopes', () => {
  let readKey: string;
  let writeKey: string;
  let hrKey: string;
  let adminKey: string;
  let existing: { id: string; email: string };

  beforeAll(async () => {
    readKey = await org.key(['crm:read']);
    writeKey = await org.key(['crm:write']);
    hrKey = await org.key(['hr:read']);
    adminKey = await org.key(['admin']);
    existing = (
      await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'scoped@example.com', company: 'Keep' } })
    ).body;
  });

  async function expectExistingUnchanged() {
    const res = await server.rest('GET', `/v1/crm/contacts/${existing.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(existing);
  }

  it('crm:read can GET the list and a contact', async () => {
    const list = await server.rest('GET', '/v1/crm/contacts', { key: readKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(existing.id);
    const one = await server.rest('GET', `/v1/crm/contacts/${existing.id}`, { key: readKey });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(existing);
  });

  it('crm:read gets 403 FORBIDDEN naming crm:write on POST, PUT and DELETE, and nothing changes', async () => {
    expectForbidden(
      await server.rest('POST', '/v1/crm/contacts', { key: readKey, body: { email: 'ro@example.com' } }),
      'crm:write',
    );
    expectForbidden(
      await server.rest('PUT', `/v1/crm/contacts/${existing.id}`, { key: readKey, body: { company: 'Changed' } }),
      'crm:write',
    );
    expectForbidden(await server.rest('DELETE', `/v1/crm/contacts/${existing.id}`, { key: readKey }), 'crm:write');
    await expectExistingUnchanged();
    const check = await server.rest('GET', '/v1/crm/contacts?email=ro@example.com', { key });
    expect(check.body.pagination.total).toBe(0);
  });

  it('the scope is checked before the body: crm:read POSTing an invalid body gets 403, not 400', async () => {
    expectForbidden(
      await server.rest('POST', '/v1/crm/contacts', { key: readKey, body: { firstName: 'No email' } }),
      'crm:write',
    );
    expectForbidden(
      await server.rest('POST', '/v1/crm/contacts', { key: readKey, body: { email: 'not-an-email', bogus: 1 } }),
      'crm:write',
    );
    expectForbidden(await server.rest('POST', '/v1/crm/contacts', { key: readKey, body: '{"email": ' }), 'crm:write');
    expectForbidden(
      await server.rest('PUT', `/v1/crm/contacts/${existing.id}`, { key: readKey, body: { email: null } }),
      'crm:write',
    );
    // ... and before the existence check.
    expectForbidden(
      await server.rest('PUT', '/v1/crm/contacts/con_missing', { key: readKey, body: { company: 'X' } }),
      'crm:write',
    );
    expectForbidden(await server.rest('DELETE', '/v1/crm/contacts/con_missing', { key: readKey }), 'crm:write');
  });

  it('crm:write alone cannot GET: 403 naming crm:read', async () => {
    expectForbidden(await server.rest('GET', '/v1/crm/contacts', { key: writeKey }), 'crm:read');
    expectForbidden(await server.rest('GET', `/v1/crm/contacts/${existing.id}`, { key: writeKey }), 'crm:read');
    // ... but can write.
    const created = await server.rest('POST', '/v1/crm/contacts', {
      key: writeKey,
      body: { email: 'writer@example.com' },
    });
    expect(created.status).toBe(201);
  });

  it('hr:read gets 403 on contacts, naming the CRM scope needed', async () => {
    expectForbidden(await server.rest('GET', '/v1/crm/contacts', { key: hrKey }), 'crm:read');
    expectForbidden(await server.rest('GET', `/v1/crm/contacts/${existing.id}`, { key: hrKey }), 'crm:read');
    expectForbidden(
      await server.rest('POST', '/v1/crm/contacts', { key: hrKey, body: { email: 'hr@example.com' } }),
      'crm:write',
    );
    expectForbidden(
      await server.rest('PUT', `/v1/crm/contacts/${existing.id}`, { key: hrKey, body: { company: 'HR' } }),
      'crm:write',
    );
    expectForbidden(await server.rest('DELETE', `/v1/crm/contacts/${existing.id}`, { key: hrKey }), 'crm:write');
    await expectExistingUnchanged();
  });

  it('hr:read can list events but sees no contact events', async () => {
    const res = await server.rest('GET', '/v1/events?limit=100', { key: hrKey });
    expect(res.status).toBe(200);
    expect(res.body.data.filter((e: { type: string }) => e.type.startsWith('contact.'))).toEqual([]);
    const crm = await server.rest('GET', '/v1/events?limit=100', { key: readKey });
    expect(crm.body.data.filter((e: { type: string }) => e.type.startsWith('contact.')).length).toBeGreaterThan(0);
  });

  it('admin can do everything', async () => {
    const created = await server.rest('POST', '/v1/crm/contacts', {
      key: adminKey,
      body: { email: 'admin-made@example.com' },
    });
    expect(created.status).toBe(201);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: adminKey })).status).toBe(200);
    const one = await server.rest('GET', `/v1/crm/contacts/${created.body.id}`, { key: adminKey });
    expect(one.body).toEqual(created.body);
    const updated = await server.rest('PUT', `/v1/crm/contacts/${created.body.id}`, {
      key: adminKey,
      body: { company: 'Admin Co' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.company).toBe('Admin Co');
    expect((await server.rest('DELETE', `/v1/crm/contacts/${created.body.id}`, { key: adminKey })).status).toBe(204);
    const events = await server.rest('GET', '/v1/events?limit=100', { key: adminKey });
    expect(events.status).toBe(200);
    expect(events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(
      created.body.id,
    );
  });

  it('a 403 is not a 401: no WWW-Authenticate challenge', async () => {
    const res = await server.rest('POST', '/v1/crm/contacts', { key: readKey, body: { email: 'x@example.com' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});
