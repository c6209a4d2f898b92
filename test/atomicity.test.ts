// A change and its event commit together or not at all, proven through the
// real services and the real HTTP API. This file's database gets a deferred
// constraint trigger that refuses, at COMMIT, any event whose data.object holds
// a value starting with the mark: the change is written, the event is written,
// and then the transaction fails. A service that wrote its event outside the
// change's transaction (or committed the change first) would leave one behind.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer();
const MARK = 'fail-at-commit';

beforeAll(async () => {
  await server.prisma.$executeRawUnsafe(`
    create function refuse_marked_event() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from jsonb_each_text(new.data -> 'object') where value like '${MARK}%') then
        raise exception 'event % carries the mark: refused at commit', new.id;
      end if;
      return null;
    end $$`);
  await server.prisma.$executeRawUnsafe(`
    create constraint trigger refuse_marked_event after insert on "Event"
    deferrable initially deferred for each row execute function refuse_marked_event()`);
});

/** The answer to a fault: the envelope, and nothing of the database in it. */
function expectInternalError(res: TestResponse): void {
  expect(res.status, res.text).toBe(500);
  expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An internal error occurred' } });
  expect(res.text).not.toMatch(/mark|refuse|trigger|commit|event|prisma|postgres|select|insert|\.ts:\d+/i);
}

/** A fresh organization with a key, so that its events are only this test's (and its keys'). */
async function tenant(scopes: Parameters<TestOrg['key']>[0]) {
  const org = await server.org();
  return { org, key: await org.key(scopes) };
}

const eventsOf = (organizationId: string) =>
  server.prisma.event.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

describe('the harness', () => {
  it('refuses a marked event at COMMIT, after the insert itself succeeded', async () => {
    const { org } = await tenant(['crm:read']);
    let inserted = false;
    const transaction = server.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`insert into "Event" (id, "organizationId", type, data)
        values ('evt_harness', ${org.id}, 'contact.created', ${JSON.stringify({ object: { email: MARK } })}::jsonb)`;
      inserted = true;
    });
    await expect(transaction).rejects.toThrow();
    expect(inserted).toBe(true);
    expect(await server.prisma.event.count({ where: { id: 'evt_harness' } })).toBe(0);
  });
});

/** The organization's contacts, counted in SQL (the kit's tables are not Prisma models). */
async function contactCount(organizationId: string) {
  const [{ n }] = await server.prisma.$queryRaw<[{ n: number }]>`
    select count(*)::int as n from "Contact" where "organizationId" = ${organizationId}`;
  return n;
}

describe('contacts', () => {
  it('create: a failed commit leaves neither the contact nor contact.created', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const events = await eventsOf(org.id);
    const email = `${MARK}-create@example.test`;

    expectInternalError(await server.rest('POST', '/v1/crm/contacts', { key, body: { email } }));

    expect(await contactCount(org.id)).toBe(0);
    expect((await server.rest('GET', `/v1/crm/contacts?email=${email}`, { key })).body.pagination.total).toBe(0);
    expect(await eventsOf(org.id)).toEqual(events);
  });

  it('update: a failed commit leaves the contact as it was and no contact.updated', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const created = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'kept@example.test', company: 'Before' },
    });
    expect(created.status).toBe(201);
    const events = await eventsOf(org.id);

    const path = `/v1/crm/contacts/${created.body.id}`;
    expectInternalError(await server.rest('PUT', path, { key, body: { company: `${MARK} Co` } }));

    expect((await server.rest('GET', path, { key })).body).toEqual(created.body);
    expect(await eventsOf(org.id)).toEqual(events);
  });

  it('GraphQL createContact: a failed commit is INTERNAL_ERROR and leaves nothing', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const events = await eventsOf(org.id);
    const res = await server.gql(
      'mutation ($email: String!) { createContact(input: { email: $email }) { id } }',
      { email: `${MARK}-graphql@example.test` },
      { key },
    );
    expect(res.errors?.[0]).toMatchObject({
      message: 'An internal error occurred',
      extensions: { code: 'INTERNAL_ERROR' },
    });
    expect(res.data?.createContact ?? null).toBeNull();
    expect(await contactCount(org.id)).toBe(0);
    expect(await eventsOf(org.id)).toEqual(events);
  });

  it('without the mark, create and update commit with their events', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'fine@example.test' } });
    expect(created.status, created.text).toBe(201);
    const updated = await server.rest('PUT', `/v1/crm/contacts/${created.body.id}`, {
      key,
      body: { company: 'Fine Co' },
    });
    expect(updated.status, updated.text).toBe(200);

    const contactEvents = (await eventsOf(org.id)).filter((event) => event.type.startsWith('contact.'));
    expect(contactEvents.map((event) => [event.type, (event.data as { object: object }).object])).toEqual([
      ['contact.created', created.body],
      ['contact.updated', updated.body],
    ]);
  });
});

describe('API keys', () => {
  const apiKeyEvents = async (organizationId: string, id: string) =>
    (await eventsOf(organizationId)).filter(
      (event) => event.type === 'api_key.created' && (event.data as { object: { id: string } }).object.id === id,
    );

  it('create: a failed commit leaves neither the key nor api_key.created', async () => {
    const { org, key } = await tenant(['admin']);
    const keys = await server.prisma.apiKey.findMany({ where: { organizationId: org.id }, select: { id: true } });
    const events = await eventsOf(org.id);

    const res = await server.rest('POST', '/v1/api-keys', { key, body: { name: `${MARK} key`, scopes: ['crm:read'] } });
    expectInternalError(res);

    expect(await server.prisma.apiKey.findMany({ where: { organizationId: org.id }, select: { id: true } })).toEqual(
      keys,
    );
    expect(await eventsOf(org.id)).toEqual(events);
  });

  it('rotate: a failed commit leaves the old key working and unrevoked, no new key and no api_key.created', async () => {
    const { org, key } = await tenant(['admin']);
    const old = await server.rest('POST', '/v1/api-keys', { key, body: { name: 'to rotate', scopes: ['crm:read'] } });
    expect(old.status, old.text).toBe(201);
    // A rotation copies the name into the new key's event: mark it (no API renames a key).
    await server.prisma.apiKey.update({ where: { id: old.body.id }, data: { name: `${MARK} rotated` } });
    const keys = await server.prisma.apiKey.findMany({ where: { organizationId: org.id }, select: { id: true } });
    const events = await eventsOf(org.id);

    expectInternalError(await server.rest('POST', `/v1/api-keys/${old.body.id}/rotate`, { key }));

    const after = await server.rest('GET', `/v1/api-keys/${old.body.id}`, { key });
    expect(after.body.revokedAt).toBeNull();
    expect((await server.rest('GET', '/v1/crm/contacts', { key: old.body.key })).status).toBe(200);
    expect(await server.prisma.apiKey.findMany({ where: { organizationId: org.id }, select: { id: true } })).toEqual(
      keys,
    );
    expect(await eventsOf(org.id)).toEqual(events);
  });

  it('without the mark, create and rotate commit with their events', async () => {
    const { org, key } = await tenant(['admin']);
    const created = await server.rest('POST', '/v1/api-keys', { key, body: { name: 'fine', scopes: ['crm:read'] } });
    expect(created.status, created.text).toBe(201);
    const [createdEvent] = await apiKeyEvents(org.id, created.body.id);
    expect(createdEvent).toBeDefined();

    const rotated = await server.rest('POST', `/v1/api-keys/${created.body.id}/rotate`, { key });
    expect(rotated.status, rotated.text).toBe(201);
    const old = await server.rest('GET', `/v1/api-keys/${created.body.id}`, { key });
    expect(old.body.revokedAt).toEqual(expect.any(String));
    const fresh = await server.rest('GET', `/v1/api-keys/${rotated.body.id}`, { key });
    expect(fresh.status).toBe(200);
    const rotatedEvents = await apiKeyEvents(org.id, rotated.body.id);
    expect(rotatedEvents.map((event) => (event.data as { object: object }).object)).toEqual([fresh.body]);
  });
});

describe('deals', () => {
  const dealsOf = (organizationId: string) =>
    server.prisma.$queryRaw<{ id: string }[]>`select id from "Deal" where "organizationId" = ${organizationId}`;
  // The tenant's key wrote api_key.created: only the deal's events are in question.
  const dealEvents = async (organizationId: string) =>
    (await eventsOf(organizationId)).filter((event) => event.type.startsWith('deal.'));

  it('create: a failed commit leaves neither the deal nor deal.created', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const res = await server.rest('POST', '/v1/crm/deals', { key, body: { title: `${MARK} deal`, currency: 'EUR' } });
    expectInternalError(res);
    expect(await dealsOf(org.id)).toEqual([]);
    expect(await dealEvents(org.id)).toEqual([]);
  });

  it('closing: a failed commit leaves the deal open, without deal.stage_changed or deal.closed', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const created = await server.rest('POST', '/v1/crm/deals', { key, body: { title: 'Open', currency: 'EUR' } });
    expect(created.status, created.text).toBe(201);
    const events = await dealEvents(org.id);

    const res = await server.rest('PUT', `/v1/crm/deals/${created.body.id}`, {
      key,
      body: { stage: 'won', title: `${MARK} won` },
    });
    expectInternalError(res);
    expect((await server.rest('GET', `/v1/crm/deals/${created.body.id}`, { key })).body).toEqual(created.body);
    expect(await dealEvents(org.id)).toEqual(events);
  });

  it('without the mark, a close commits with deal.updated, deal.stage_changed and deal.closed', async () => {
    const { org, key } = await tenant(['crm:read', 'crm:write']);
    const created = await server.rest('POST', '/v1/crm/deals', { key, body: { title: 'Fine', currency: 'EUR' } });
    const won = await server.rest('PUT', `/v1/crm/deals/${created.body.id}`, { key, body: { stage: 'won' } });
    expect(won.status, won.text).toBe(200);
    expect((await dealEvents(org.id)).map((event) => event.type)).toEqual([
      'deal.created',
      'deal.updated',
      'deal.stage_changed',
      'deal.closed',
    ]);
  });
});

// User changes raise events too (user.created, user.updated, user.deleted): the kit's store writes them in the
// change's own statement, like api_key.created (test/event-actors.test.ts checks they are raised).
