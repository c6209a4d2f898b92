// Idempotency-Key on POST: safe retries of creates (DECISIONS.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../src/http/idempotency.js';
import { useServer } from './support/fixtures.js';

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

const contactCount = (email: string) => server.prisma.contact.count({ where: { organizationId: org, email } });

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
    expect(events).toBe(await server.prisma.contact.count({ where: { organizationId: org } }));
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
    await server.prisma.idempotencyKey.update({
      where: { organizationId_key: { organizationId: org, key: 'day-old' } },
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
    await server.prisma.idempotencyKey.update({
      where: { organizationId_key: { organizationId: org, key: 'prune-old' } },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    const store = new IdempotencyStore(server.prisma);
    expect(await store.prune()).toBeGreaterThanOrEqual(1);
    const left = await server.prisma.idempotencyKey.findMany({
      where: { organizationId: org, key: { startsWith: 'prune-' } },
    });
    expect(left.map((row) => row.key)).toEqual(['prune-new']);
  });
});
