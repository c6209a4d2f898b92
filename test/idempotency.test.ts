// Idempotency-Key on POST: safe retries of creates (docs/decisions.md, "REST"), per credential,
// with answers sealed at rest and requests identified by a keyed hash.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverKeysFor } from '../src/auth/server-keys.js';
import { IdempotencyStore } from '../src/http/idempotency.js';
import { useServer } from './support/fixtures.js';
import { createApp, createUser, obtainTokens, tokenRequest } from './support/oauth.js';

const server = useServer();
let key: string;
let org: string;

beforeAll(async () => {
  const created = await server.org();
  org = created.id;
  key = await created.key(['crm:read', 'crm:write']);
});

const post = (body: unknown, idempotencyKey?: string, as = key) =>
  server.rest('POST', '/v1/crm/contacts', {
    key: as,
    body,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });

/** The organization's contacts, or those with this email: read in SQL. */
async function contactCount(email?: string) {
  const rows = await server.prisma.$queryRaw<{ email: string }[]>`
    select email from "Contact" where "organizationId" = ${org}`;
  return rows.filter((row) => email === undefined || row.email === email).length;
}

describe('Idempotency-Key', () => {
  it('answers a repeat with the first response and creates once', async () => {
    const first = await post({ email: 'once@example.com', tags: ['a'] }, 'create-once-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post({ email: 'once@example.com', tags: ['a'] }, 'create-once-1');
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await contactCount('once@example.com')).toBe(1);
    const events = await server.prisma.event.count({ where: { organizationId: org, type: 'contact.created' } });
    expect(events).toBe(await contactCount());
  });

  it('answers 409 CONFLICT when the same key comes with another body', async () => {
    await post({ email: 'first@example.com' }, 'reused-key');
    const other = await post({ email: 'second@example.com' }, 'reused-key');
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'CONFLICT', field: 'Idempotency-Key' });
    expect(await contactCount('second@example.com')).toBe(0);
  });

  it('replays a client error too, so a retry cannot turn a 400 into a different answer', async () => {
    const first = await post({ firstName: 'No email' }, 'bad-body');
    expect(first.status).toBe(400);
    const again = await post({ firstName: 'No email' }, 'bad-body');
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('runs concurrent repeats once: one creates, the others replay or are told it is in progress', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => post({ email: 'race@example.com' }, 'race-key')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body.error).toMatchObject({ code: 'CONFLICT', field: 'Idempotency-Key' });
    }
    const created = results.filter((r) => r.status === 201).map((r) => r.body.id);
    expect(new Set(created).size).toBe(1);
    expect(await contactCount('race@example.com')).toBe(1);
  });

  it('keeps keys per organization', async () => {
    const otherKey = await (await server.org()).key(['crm:write']);
    const mine = await post({ email: 'shared-key@example.com' }, 'same-key-two-orgs');
    const theirs = await post({ email: 'shared-key@example.com' }, 'same-key-two-orgs', otherKey);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('rejects a malformed key by name', async () => {
    const res = await post({ email: 'long@example.com' }, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
    expect(await contactCount('long@example.com')).toBe(0);
  });

  it('refuses a body nested too deeply to hash with 400, not 500', async () => {
    // Found by the fuzz test: JSON.parse takes any depth, the request hash's JSON.stringify does not.
    for (const body of [
      '['.repeat(100_000) + ']'.repeat(100_000),
      `{"email":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    ]) {
      const res = await post(body, 'deep');
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toEqual({ code: 'VALIDATION_ERROR', message: 'The request body is nested too deeply' });
    }
    // The key was not taken: a proper request may use it.
    expect((await post({ email: 'after-deep@example.com' }, 'deep')).status).toBe(201);
  });

  it('lets a key be used again after 24 hours', async () => {
    const first = await post({ email: 'day-old@example.com' }, 'day-old');
    await server.prisma.idempotencyKey.updateMany({
      where: { organizationId: org, key: 'day-old' },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    await server.rest('DELETE', `/v1/crm/contacts/${first.body.id}`, { key });
    const again = await post({ email: 'day-old@example.com' }, 'day-old');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('without the header, each POST is its own request', async () => {
    expect((await post({ email: 'plain@example.com' })).status).toBe(201);
    expect((await post({ email: 'plain@example.com' })).status).toBe(409);
  });
});

describe('cleanup', () => {
  it('forgets keys older than 24 hours and keeps the rest', async () => {
    await post({ email: 'prune-old@example.com' }, 'prune-old');
    await post({ email: 'prune-new@example.com' }, 'prune-new');
    await server.prisma.idempotencyKey.updateMany({
      where: { organizationId: org, key: 'prune-old' },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    const store = new IdempotencyStore(server.prisma, await serverKeysFor(server.config));
    expect(await store.prune()).toBeGreaterThanOrEqual(1);
    const left = await server.prisma.idempotencyKey.findMany({
      where: { organizationId: org, key: { startsWith: 'prune-' } },
    });
    expect(left.map((row) => row.key)).toEqual(['prune-new']);
  });
});

describe('keys of one credential, answers sealed', () => {
  const idempotent = (path: string, body: unknown, idempotencyKey: string, as: string) =>
    server.rest('POST', path, { key: as, body, headers: { 'idempotency-key': idempotencyKey } });

  it('replays an issued secret to the credential that sent the key, and to no other', async () => {
    const organization = await server.org();
    const first = await organization.key(['admin']);
    const second = await organization.key(['admin']);
    const body = { name: 'integration', scopes: ['crm:read'] };
    const created = await idempotent('/v1/api-keys', body, 'new-key-1', first);
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(/^bps_/);

    const retried = await idempotent('/v1/api-keys', body, 'new-key-1', first);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(created.body);

    // Another admin credential of the organization with the same key and body: a request of its own.
    const other = await idempotent('/v1/api-keys', body, 'new-key-1', second);
    expect(other.status, other.text).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.id).not.toBe(created.body.id);
    expect(other.text).not.toContain(created.body.secret);
    expect(await server.prisma.apiKey.count({ where: { organizationId: organization.id, name: 'integration' } })).toBe(
      2,
    );
    // The key is now its own too: another body with it is a conflict.
    const yetAnother = await idempotent('/v1/api-keys', { ...body, name: 'other' }, 'new-key-1', second);
    expect(yetAnother.status).toBe(409);
  });

  it('stores no issued secret in clear, and still replays each one', async () => {
    const organization = await server.org();
    const admin = await organization.key(['admin']);
    const issued: string[] = [];
    const twice = async (path: string, body: unknown, idempotencyKey: string) => {
      const first = await idempotent(path, body, idempotencyKey, admin);
      expect(first.status, first.text).toBeLessThan(300);
      const again = await idempotent(path, body, idempotencyKey, admin);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      return first.body;
    };
    const apiKey = await twice('/v1/api-keys', { name: 'sealed', scopes: ['crm:read'] }, 'seal-1');
    const rotatedKey = await twice(`/v1/api-keys/${apiKey.id}/rotate`, {}, 'seal-2');
    const app = await twice(
      '/v1/oauth-apps',
      { name: 'Sealed', redirectUris: ['https://app.example/cb'], scopes: ['crm:read'] },
      'seal-3',
    );
    const rotatedApp = await twice(`/v1/oauth-apps/${app.id}/rotate-secret`, {}, 'seal-4');
    const webhook = await twice('/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: ['contact.created'] }, 'seal-5');
    const rotatedWebhook = await twice(`/v1/webhooks/${webhook.id}/rotate-secret`, {}, 'seal-6');
    issued.push(apiKey.key, apiKey.secret, rotatedKey.key, rotatedKey.secret, app.clientSecret);
    issued.push(rotatedApp.clientSecret, webhook.secret, rotatedWebhook.secret);
    for (const secret of issued) expect(secret).toMatch(/^(bpk|bps|bpcs|whsec)_/);

    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ row: string }>(
        `select row_to_json(i)::text as row from "IdempotencyKey" i where "organizationId" = $1`,
        [organization.id],
      );
      expect(rows).toHaveLength(6);
      const stored = rows.map((r) => r.row).join('\n');
      for (const secret of issued) {
        expect(stored).not.toContain(secret);
        expect(stored).not.toContain(secret.slice(secret.indexOf('_') + 1));
      }
      // Not even the record ids: the whole answer is sealed.
      expect(stored).not.toContain(apiKey.id);
    } finally {
      await client.end();
    }
  });

  it('keeps the replay of a code-flow token through a refresh (the same app and user)', async () => {
    const organization = await server.org();
    const app = await createApp(server, organization.id, { scopes: ['crm:read', 'crm:write'] });
    const user = await createUser(server, organization.id);
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read crm:write' });
    const body = { email: 'through-refresh@example.com' };
    const first = await idempotent('/v1/crm/contacts', body, 'refresh-1', tokens.access_token);
    expect(first.status, first.text).toBe(201);
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const again = await idempotent('/v1/crm/contacts', body, 'refresh-1', refreshed.body.access_token);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // An API key of the same organization is another credential.
    const key = await organization.key(['crm:write']);
    const other = await idempotent('/v1/crm/contacts', { email: 'by-key@example.com' }, 'refresh-1', key);
    expect(other.status, other.text).toBe(201);
  });

  it('identifies the request by a keyed hash: a stored hash does not confirm a guessed password', async () => {
    const organization = await server.org();
    const admin = await organization.key(['admin']);
    const body = { email: 'hashed@example.com', role: 'member', scopes: [], password: 'guessable password 1' };
    const created = await idempotent('/v1/users', body, 'user-1', admin);
    expect(created.status, created.text).toBe(201);
    const [row] = await server.prisma.idempotencyKey.findMany({ where: { organizationId: organization.id } });
    // What anyone who reads the table could compute for a guess, were the hash unkeyed.
    const plain = createHash('sha256')
      .update(`POST /v1/users\n${JSON.stringify(body)}`)
      .digest('hex');
    expect(row!.requestHash).not.toContain(plain);
    expect(row!.requestHash).toMatch(/^[\w-]+\.[0-9a-f]{64}$/);
    // The hash still covers the password: the same key with another one is a conflict.
    const other = await idempotent('/v1/users', { ...body, password: 'guessable password 2' }, 'user-1', admin);
    expect(other.status).toBe(409);
    const again = await idempotent('/v1/users', body, 'user-1', admin);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(created.body.id);
  });
});
