import 'reflect-metadata';
// Who an event's actor is, in words (GraphQL EventActor.name, which the
// dashboard's record histories show): a user's name or else their email, an
// API key's or an OAuth app's name, System; null for one since deleted, and for
// an id of another organization (a name never crosses organizations).
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/auth/principal.js';
import { useServer } from './support/fixtures.js';
import { createApp, createKeyWithSecret } from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let key: string;
let organizationId: string;

beforeAll(async () => {
  const org = await server.org('Actor names');
  organizationId = org.id;
  key = (await createKeyWithSecret(server, org.id, ['admin'])).key;
});

/** A new contact; its created event made by `actor` (the one column the test rewrites), and read back. */
async function actorOf(actor: { type: string; id: string | null }) {
  const made = await server.gql(
    'mutation ($email: String!) { createContact(input: { email: $email }) { id } }',
    {
      email: `c-${Math.random().toString(36).slice(2)}@actors.test`,
    },
    { key },
  );
  const id = made.data.createContact.id as string;
  await server.prisma.$executeRawUnsafe(
    `update "Event" set "actorType" = $1, "actorId" = $2 where "organizationId" = $3 and data->'object'->>'id' = $4`,
    actor.type,
    actor.id,
    organizationId,
    id,
  );
  const read = await server.gql(
    'query ($id: ID!) { events(objectId: $id) { data { actor { type id name } } } }',
    { id },
    { key },
  );
  expect(read.errors).toBeUndefined();
  return read.data.events.data[0].actor as { type: string; id: string | null; name: string | null };
}

describe('EventActor.name', () => {
  it('names the API key that made a change', async () => {
    const made = await server.gql(
      'mutation { createContact(input: { email: "by-key@actors.test" }) { id } }',
      {},
      { key },
    );
    const id = made.data.createContact.id;
    const read = await server.gql(
      'query ($id: ID!) { events(objectId: $id) { data { actor { type name } } } }',
      { id },
      { key },
    );
    expect(read.data.events.data).toEqual([{ actor: { type: 'api_key', name: 'client credentials' } }]);
  });

  it('a user by name, else by email; an OAuth app by name; the service as System', async () => {
    const principal = operatorPrincipal(organizationId);
    const named = await server.services.users.create(principal, {
      email: 'ada@actors.test',
      name: 'Ada Lovelace',
      password: 'correct horse battery staple',
      role: 'admin',
    });
    const unnamed = await server.services.users.create(principal, {
      email: 'nameless@actors.test',
      password: 'correct horse battery staple',
      role: 'admin',
    });
    const app = await createApp(server, organizationId, { name: 'Ledger Sync' });
    expect((await actorOf({ type: 'user', id: named.id })).name).toBe('Ada Lovelace');
    expect((await actorOf({ type: 'user', id: unnamed.id })).name).toBe('nameless@actors.test');
    expect((await actorOf({ type: 'oauth_app', id: app.id })).name).toBe('Ledger Sync');
    expect(await actorOf({ type: 'system', id: null })).toEqual({ type: 'system', id: null, name: 'System' });
  });

  it('null for one deleted since, and for an id of another organization', async () => {
    const other = await server.org('Someone else');
    const stranger = await server.services.users.create(operatorPrincipal(other.id), {
      email: 'stranger@actors.test',
      name: 'Stranger',
      password: 'correct horse battery staple',
      role: 'admin',
    });
    expect((await actorOf({ type: 'user', id: stranger.id })).name).toBeNull();
    expect((await actorOf({ type: 'user', id: 'usr_01hzy3k5m8q2w4x6z8a0c2e4g6' })).name).toBeNull();
  });

  it('is read for a page of events in one go, each with its own', async () => {
    const read = await server.gql('{ events(limit: 100) { data { actor { type name } } } }', {}, { key });
    expect(read.errors).toBeUndefined();
    const names = new Set(read.data.events.data.map((event: { actor: { name: string | null } }) => event.actor.name));
    expect(names).toEqual(
      new Set(['client credentials', 'Ada Lovelace', 'nameless@actors.test', 'Ledger Sync', 'System', null]),
    );
  });
});
