import 'reflect-metadata';
// The events a client reads at /v1/events (and webhooks deliver): written with
// the change they describe, in the specification's envelope, scoped to the
// organization and to what the credential may read.
import { describe, expect, it } from 'vitest';
import type { Scope } from '../src/auth/scopes.js';
import { contacts } from '../src/graphql/crm/contact/index.js';
import { newIdWith } from '../src/ids.js';
import { SYSTEM_ACTOR } from '../src/auth/principal.js';
import { emitEvent } from '../src/events/emit.js';
import { useServer } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });

interface EventBody {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

/** A fresh organization, so counts in one test never see another test's events. */
async function tenant(scopes: Scope[] = ['crm:read', 'crm:write']) {
  const org = await server.org();
  const key = await org.key(scopes);
  return { org, key };
}

async function createContact(key: string, body: Record<string, unknown>) {
  const res = await server.rest('POST', '/v1/crm/contacts', { key, body });
  expect(res.status).toBe(201);
  return res.body;
}

async function listEvents(key: string, query = '') {
  return server.rest('GET', `/v1/events${query}`, { key });
}

/** Every event the key can see, walking all pages. */
async function allEvents(key: string, query = ''): Promise<EventBody[]> {
  const events: EventBody[] = [];
  for (let page = 1; ; page++) {
    const res = await listEvents(key, `?limit=100&page=${page}${query}`);
    expect(res.status).toBe(200);
    events.push(...res.body.data);
    if (page >= res.body.pagination.pages) return events;
  }
}

const nowSeconds = () => Date.now() / 1000;

describe('contact.created', () => {
  it('is listed with id, type, created and data.object equal to the create response', async () => {
    const { key } = await tenant();
    const before = Math.floor(nowSeconds());
    const contact = await createContact(key, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'Ada@Example.com',
      company: 'Analytical',
      phone: '+44 20 7946 0000',
      tags: ['vip'],
    });
    const after = Math.ceil(nowSeconds());

    const res = await listEvents(key);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 1, pages: 1, totalExact: true, next: null });
    const [event] = res.body.data;
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]+$/),
      type: 'contact.created',
      created: expect.any(Number),
      data: { object: contact },
      actor: { type: 'api_key', id: expect.stringMatching(/^key_/) },
    });
    expect(event.data).not.toHaveProperty('previousAttributes');
    expect(Number.isInteger(event.created)).toBe(true);
    expect(event.created).toBeGreaterThanOrEqual(before - 1);
    expect(event.created).toBeLessThanOrEqual(after + 1);
    expect(Math.abs(event.created - Date.parse(contact.createdAt) / 1000)).toBeLessThan(2);
  });

  it('gives each event its own id', async () => {
    const { key } = await tenant();
    for (let i = 0; i < 5; i++) await createContact(key, { email: `unique${i}@example.com` });
    const events = await allEvents(key);
    expect(events).toHaveLength(5);
    expect(new Set(events.map((event) => event.id)).size).toBe(5);
  });
});

describe('contact.updated', () => {
  it('carries the PUT response as data.object and the old values of changed fields', async () => {
    const { key } = await tenant();
    const created = await createContact(key, {
      firstName: 'Grace',
      email: 'grace@example.com',
      company: 'Old Co',
      phone: '+1 555 0100',
      tags: ['a'],
    });
    const put = await server.rest('PUT', `/v1/crm/contacts/${created.id}`, {
      key,
      body: { firstName: 'Grace', company: 'New Co', tags: ['b'], phone: null },
    });
    expect(put.status).toBe(200);

    const res = await listEvents(key, '?type=contact.updated');
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(1);
    const [event] = res.body.data;
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'contact.updated' });
    expect(event.data.object).toEqual(put.body);
    expect(event.data.previousAttributes).toMatchObject({ company: 'Old Co', tags: ['a'], phone: '+1 555 0100' });
    // Only what changed: the unchanged first name and email are not reported.
    const allowed = ['company', 'tags', 'phone', 'updatedAt'];
    expect(Object.keys(event.data.previousAttributes).filter((k) => !allowed.includes(k))).toEqual([]);
    if ('updatedAt' in event.data.previousAttributes) {
      expect(event.data.previousAttributes.updatedAt).toBe(created.updatedAt);
    }

    const all = await allEvents(key);
    expect(all.map((e) => e.type)).toEqual(['contact.created', 'contact.updated']);
  });

  it('is not written when an update changes nothing', async () => {
    const { key } = await tenant();
    const created = await createContact(key, { email: 'same@example.com', company: 'Same Co', tags: ['x'] });
    const path = `/v1/crm/contacts/${created.id}`;

    for (const body of [{ company: 'Same Co' }, {}, { email: 'SAME@example.com', tags: ['x'] }]) {
      const res = await server.rest('PUT', path, { key, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
    }
    const updated = await listEvents(key, '?type=contact.updated');
    expect(updated.body.pagination.total).toBe(0);
    expect((await allEvents(key)).map((e) => e.type)).toEqual(['contact.created']);
  });
});

describe('GET /v1/events/:id', () => {
  it('returns the same event as the list', async () => {
    const { key } = await tenant();
    await createContact(key, { email: 'one@example.com' });
    const [listed] = (await listEvents(key)).body.data;
    const res = await server.rest('GET', `/v1/events/${listed.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(listed);
  });

  it('answers 404 for an unknown id and for another organization’s event', async () => {
    const { key } = await tenant();
    await createContact(key, { email: 'mine@example.com' });
    const [event] = (await listEvents(key)).body.data;

    const unknown = await server.rest('GET', '/v1/events/evt_nope', { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    for (const scopes of [['crm:read'], ['admin']] as Scope[][]) {
      const other = await tenant(scopes);
      const res = await server.rest('GET', `/v1/events/${event.id}`, { key: other.key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('requires a credential', async () => {
    const res = await server.rest('GET', '/v1/events');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('filters and pagination', () => {
  it('type=contact.updated returns only updates; an unknown type is 400 naming type', async () => {
    const { key } = await tenant();
    const a = await createContact(key, { email: 'a@example.com' });
    await createContact(key, { email: 'b@example.com' });
    await server.rest('PUT', `/v1/crm/contacts/${a.id}`, { key, body: { company: 'First' } });
    await server.rest('PUT', `/v1/crm/contacts/${a.id}`, { key, body: { company: 'Second' } });

    const updated = await listEvents(key, '?type=contact.updated');
    expect(updated.status).toBe(200);
    expect(updated.body.pagination).toEqual({ page: 1, limit: 50, total: 2, pages: 1, totalExact: true, next: null });
    expect(updated.body.data.map((e: EventBody) => e.type)).toEqual(['contact.updated', 'contact.updated']);
    expect(updated.body.data.map((e: EventBody) => e.data.previousAttributes?.company)).toEqual([null, 'First']);

    const created = await listEvents(key, '?type=contact.created');
    expect(created.body.pagination.total).toBe(2);
    expect(created.body.data.every((e: EventBody) => e.type === 'contact.created')).toBe(true);

    const none = await listEvents(key, '?type=invoice.paid');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      data: [],
      pagination: { page: 1, limit: 50, total: 0, pages: 0, totalExact: true, next: null },
    });

    for (const type of ['bogus', 'contact', 'CONTACT.CREATED']) {
      const bad = await listEvents(key, `?type=${type}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'type' });
    }
  });

  it('since=<unix seconds> keeps only events at or after that time', async () => {
    const { key } = await tenant();
    await createContact(key, { email: 'old@example.com' });
    const [old] = (await listEvents(key)).body.data;
    // Make the first event an hour old.
    await server.prisma.event.update({ where: { id: old.id }, data: { createdAt: new Date(Date.now() - 3600_000) } });
    await createContact(key, { email: 'new@example.com' });

    const all = await allEvents(key);
    expect(all).toHaveLength(2);
    expect(all[0]!.id).toBe(old.id);
    expect(all[0]!.created).toBeLessThan(nowSeconds() - 3500);
    const recent = all[1]!;

    const since = await listEvents(key, `?since=${Math.floor(nowSeconds()) - 600}`);
    expect(since.status).toBe(200);
    expect(since.body.pagination.total).toBe(1);
    expect(since.body.data.map((e: EventBody) => e.id)).toEqual([recent.id]);

    // At or after: the event's own second includes it, the next second does not.
    const exact = await listEvents(key, `?since=${recent.created}`);
    expect(exact.body.data.map((e: EventBody) => e.id)).toEqual([recent.id]);
    const later = await listEvents(key, `?since=${recent.created + 1}`);
    expect(later.body.pagination.total).toBe(0);

    const zero = await listEvents(key, '?since=0');
    expect(zero.body.pagination.total).toBe(2);

    const combined = await listEvents(key, `?since=${recent.created}&type=contact.created`);
    expect(combined.body.data.map((e: EventBody) => e.id)).toEqual([recent.id]);

    for (const bad of ['abc', '-1', '1.5']) {
      const res = await listEvents(key, `?since=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'since' });
    }
  });

  it('names the field when since is too large to be a time it can filter on', async () => {
    const { key } = await tenant();
    const res = await listEvents(key, '?since=99999999999');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'since' });
  });

  it('pages like contacts: oldest first, every event once, true pagination past the end', async () => {
    const { key } = await tenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createContact(key, { email: `p${i}@example.com` })).id);

    const first = await listEvents(key, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      pages: 3,
      totalExact: true,
      next: expect.any(String),
    });

    const walked: EventBody[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await listEvents(key, `?limit=2&page=${page}`);
      expect(res.body.pagination).toEqual({
        page,
        limit: 2,
        total: 5,
        pages: 3,
        totalExact: true,
        next: page < 3 ? expect.any(String) : null,
      });
      expect(res.body.data).toHaveLength(page < 3 ? 2 : 1);
      walked.push(...res.body.data);
    }
    expect(new Set(walked.map((e) => e.id)).size).toBe(5);
    expect(walked.map((e) => e.data.object.id)).toEqual(ids);
    const created = walked.map((e) => e.created);
    expect(created).toEqual([...created].sort((x, y) => x - y));

    const past = await listEvents(key, '?limit=2&page=4');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      data: [],
      pagination: { page: 4, limit: 2, total: 5, pages: 3, totalExact: true, next: null },
    });

    const defaults = await listEvents(key);
    expect(defaults.body.pagination).toEqual({ page: 1, limit: 50, total: 5, pages: 1, totalExact: true, next: null });

    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1&limit=2', 'limit'],
    ]) {
      const res = await listEvents(key, `?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
  });
});

describe('who sees which events', () => {
  it('hides contact events from a key without crm:read, shows them to admin, and never to another organization', async () => {
    const { org, key } = await tenant();
    await createContact(key, { email: 'scoped@example.com' });
    const [event] = (await listEvents(key)).body.data;
    expect(event.type).toBe('contact.created');

    const hrKey = await org.key(['hr:read']);
    const hrList = await listEvents(hrKey);
    expect(hrList.status).toBe(200);
    expect(hrList.body).toEqual({
      data: [],
      pagination: { page: 1, limit: 50, total: 0, pages: 0, totalExact: true, next: null },
    });
    const hrTyped = await listEvents(hrKey, '?type=contact.created');
    expect(hrTyped.status).toBe(200);
    expect(hrTyped.body.pagination.total).toBe(0);
    const hrGet = await server.rest('GET', `/v1/events/${event.id}`, { key: hrKey });
    expect(hrGet.status).toBe(404);
    expect(hrGet.body.error.code).toBe('NOT_FOUND');

    const adminKey = await org.key(['admin']);
    const adminList = await listEvents(adminKey, '?type=contact.created');
    expect(adminList.body.data).toEqual([event]);
    expect((await allEvents(adminKey)).map((e) => e.id)).toContain(event.id);
    const adminGet = await server.rest('GET', `/v1/events/${event.id}`, { key: adminKey });
    expect(adminGet.status).toBe(200);
    expect(adminGet.body).toEqual(event);

    const readOnly = await org.key(['crm:read']);
    expect((await listEvents(readOnly)).body.data).toEqual([event]);

    // The other organization's admin sees its own events (api_key.created), never this one's.
    const other = await tenant(['admin']);
    const otherList = await listEvents(other.key, '?type=contact.created');
    expect(otherList.status).toBe(200);
    expect(otherList.body.pagination.total).toBe(0);
    expect(otherList.body.data).toEqual([]);
    expect((await allEvents(other.key)).map((e) => e.id)).not.toContain(event.id);
  });
});

describe('no event without its change', () => {
  it('a create rejected as a duplicate leaves no extra event', async () => {
    const { org, key } = await tenant();
    await createContact(key, { email: 'dup@example.com' });
    const dup = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'DUP@example.com' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'CONFLICT', field: 'email' });
    const invalid = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'not-an-email' } });
    expect(invalid.status).toBe(400);

    expect((await listEvents(key)).body.pagination.total).toBe(1);
    expect(
      await server.prisma.event.count({ where: { organizationId: org.id, type: { startsWith: 'contact.' } } }),
    ).toBe(1);
  });

  it('an update rejected as a conflict leaves no contact.updated event', async () => {
    const { org, key } = await tenant();
    await createContact(key, { email: 'taken@example.com' });
    const other = await createContact(key, { email: 'free@example.com', company: 'Keep' });
    const res = await server.rest('PUT', `/v1/crm/contacts/${other.id}`, {
      key,
      body: { email: 'taken@example.com', company: 'Changed' },
    });
    expect(res.status).toBe(409);
    expect((await listEvents(key, '?type=contact.updated')).body.pagination.total).toBe(0);
    expect(await server.prisma.event.count({ where: { organizationId: org.id, type: 'contact.updated' } })).toBe(0);
    expect((await server.rest('GET', `/v1/crm/contacts/${other.id}`, { key })).body).toEqual(other);
  });

  it('an event emitted in a transaction that rolls back is not stored', async () => {
    const { org, key } = await tenant();
    let eventId: string | undefined;
    await expect(
      server.prisma.$transaction(async (tx) => {
        const row = await emitEvent(tx, {
          organizationId: org.id,
          type: 'contact.created',
          object: { id: 'con_ghost', email: 'ghost@example.com' },
          actor: SYSTEM_ACTOR,
        });
        eventId = row.id;
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');

    expect(eventId).toMatch(/^evt_/);
    expect(await server.prisma.event.findUnique({ where: { id: eventId! } })).toBeNull();
    expect((await listEvents(key)).body.pagination.total).toBe(0);
    expect((await server.rest('GET', `/v1/events/${eventId}`, { key })).status).toBe(404);
  });

  it('emitting a type the catalogue does not hold throws, and writes nothing', async () => {
    const { org } = await tenant();
    const before = await server.prisma.event.count({ where: { organizationId: org.id } });
    await expect(
      server.prisma.$transaction((tx) =>
        emitEvent(tx, {
          organizationId: org.id,
          type: 'contact.archived',
          object: { id: 'con_ghost' },
          actor: SYSTEM_ACTOR,
        }),
      ),
    ).rejects.toThrow("unknown event type 'contact.archived'");
    expect(await server.prisma.event.count({ where: { organizationId: org.id } })).toBe(before);
  });

  it('a contact and its event roll back together, and commit together', async () => {
    const { org, key } = await tenant();
    // Ids in the service's own format: a malformed id is never found.
    const rolledBack = newIdWith(contacts.resource.idPrefix);
    const committed = newIdWith(contacts.resource.idPrefix);
    const write = (id: string, email: string, fail: boolean) =>
      server.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`insert into "Contact" (id, "organizationId", email, "updatedAt")
          values (${id}, ${org.id}, ${email}, now())`;
        const event = await emitEvent(tx, {
          organizationId: org.id,
          type: 'contact.created',
          object: { id, email },
          actor: SYSTEM_ACTOR,
        });
        if (fail) throw new Error('rollback');
        return event.id;
      });

    await expect(write(rolledBack, 'rolled@example.com', true)).rejects.toThrow('rollback');
    expect(await server.prisma.$queryRaw`select id from "Contact" where id = ${rolledBack}`).toEqual([]);
    expect(
      await server.prisma.event.count({ where: { organizationId: org.id, type: { startsWith: 'contact.' } } }),
    ).toBe(0);
    expect((await server.rest('GET', `/v1/crm/contacts/${rolledBack}`, { key })).status).toBe(404);
    expect((await listEvents(key)).body.pagination.total).toBe(0);

    // The same write, committed, leaves both: the check above is not vacuous.
    const eventId = await write(committed, 'committed@example.com', false);
    expect((await server.rest('GET', `/v1/crm/contacts/${committed}`, { key })).status).toBe(200);
    const listed = (await listEvents(key)).body;
    expect(listed.pagination.total).toBe(1);
    expect(listed.data[0]).toMatchObject({
      id: eventId,
      type: 'contact.created',
      data: { object: { id: committed } },
    });
  });

  it('after concurrent creates, with duplicates, each contact has exactly one contact.created event', async () => {
    const { org, key } = await tenant();
    const emails = Array.from({ length: 20 }, (_, i) =>
      i % 2 ? `race${i % 8}@example.com` : `RACE${i % 8}@Example.com`,
    );
    const responses = await Promise.all(
      emails.map((email) => server.rest('POST', '/v1/crm/contacts', { key, body: { email } })),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const createdIds = responses.filter((res) => res.status === 201).map((res) => res.body.id as string);
    expect(createdIds).toHaveLength(8);

    const [{ contacts }] = await server.prisma.$queryRaw<[{ contacts: number }]>`
      select count(*)::int as contacts from "Contact" where "organizationId" = ${org.id}`;
    const events = await server.prisma.event.count({ where: { organizationId: org.id, type: 'contact.created' } });
    expect(contacts).toBe(8);
    expect(events).toBe(contacts);

    const listed = await allEvents(key, '&type=contact.created');
    expect(listed.map((e) => e.data.object.id).sort()).toEqual([...createdIds].sort());
    for (const res of responses.filter((r) => r.status === 201)) {
      expect(listed.find((e) => e.data.object.id === res.body.id)?.data.object).toEqual(res.body);
    }
  });
});

describe('api_key.created', () => {
  it('is written when a key is generated, visible to admin only, and never carries the key, secret or hashes', async () => {
    const org = await server.org();
    const admin = await org.key(['admin']);
    const reader = await org.key(['crm:read']);
    const res = await listEvents(admin, '?type=api_key.created');
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(2);
    const [first] = res.body.data;
    expect(first.data.object).toMatchObject({ id: expect.stringMatching(/^key_/), scopes: ['admin'], revokedAt: null });
    expect(first.data.object.prefix).toBe(admin.slice(0, first.data.object.prefix.length));
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(admin);
    expect(text).not.toContain(reader);
    expect(text).not.toMatch(/keyHash|secretHash|bps_/);
    expect((await listEvents(reader, '?type=api_key.created')).body.pagination.total).toBe(0);
  });
});
