// Tenancy: a credential sees only its own organization's records; another
// organization's record answers 404 NOT_FOUND, as if it did not exist.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type GraphQLResponse } from './support/fixtures.js';

const server = useServer();
let keyA: string;
let keyB: string;
let adminB: string;
let contactA: Record<string, unknown> & { id: string };

const CONTACT_FIELDS = 'id firstName lastName email company phone tags createdAt updatedAt';

beforeAll(async () => {
  const orgA = await server.org('Tenant A');
  const orgB = await server.org('Tenant B');
  keyA = await orgA.key(['crm:read', 'crm:write']);
  keyB = await orgB.key(['crm:read', 'crm:write']);
  adminB = await orgB.key(['admin']);
  const created = await server.rest('POST', '/v1/crm/contacts', {
    key: keyA,
    body: {
      firstName: 'Alice',
      lastName: 'Anders',
      email: 'alice@tenant-a.example.com',
      company: 'A Corp',
      tags: ['a'],
    },
  });
  expect(created.status).toBe(201);
  contactA = created.body;
});

function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse> {
  return server.gql(query, variables, { key });
}

async function expectAUnchanged() {
  const res = await server.rest('GET', `/v1/crm/contacts/${contactA.id}`, { key: keyA });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(contactA);
}

describe('lists', () => {
  it("B's REST list does not include A's contacts, whatever the filter", async () => {
    const own = await server.rest('POST', '/v1/crm/contacts', {
      key: keyB,
      body: { email: 'bob@tenant-b.example.com' },
    });
    expect(own.status).toBe(201);

    for (const query of [
      '',
      '?email=alice@tenant-a.example.com',
      '?company=A%20Corp',
      '?tag=a',
      '?q=alice',
      '?limit=100',
    ]) {
      const res = await server.rest('GET', `/v1/crm/contacts${query}`, { key: keyB });
      expect(res.status, query).toBe(200);
      const ids = res.body.data.map((c: { id: string }) => c.id);
      expect(ids, query).not.toContain(contactA.id);
      expect(res.text, query).not.toContain('alice@tenant-a.example.com');
    }
    const all = await server.rest('GET', '/v1/crm/contacts', { key: keyB });
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([own.body.id]);
    expect(all.body.pagination.total).toBe(1);

    const asAdmin = await server.rest('GET', '/v1/crm/contacts', { key: adminB });
    expect(asAdmin.body.data.map((c: { id: string }) => c.id)).toEqual([own.body.id]);
  });

  it("B's GraphQL contacts query does not include A's contacts", async () => {
    const res = await gql(keyB, `query { contacts(limit: 100) { data { id email } pagination { total } } }`);
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.contacts.data.map((c: { id: string }) => c.id)).not.toContain(contactA.id);
    expect(res.text).not.toContain('alice@tenant-a.example.com');

    const filtered = await gql(keyB, `query { contacts(q: "alice") { data { id } pagination { total } } }`);
    expect(filtered.body.data.contacts).toEqual({ data: [], pagination: { total: 0 } });

    const asA = await gql(keyA, `query { contacts(q: "alice") { data { id } } }`);
    expect(asA.body.data.contacts.data).toEqual([{ id: contactA.id }]);
  });
});

describe("another organization's contact by id", () => {
  it("GET with B's key answers 404 NOT_FOUND", async () => {
    for (const key of [keyB, adminB]) {
      const res = await server.rest('GET', `/v1/crm/contacts/${contactA.id}`, { key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(res.text).not.toContain('alice');
    }
  });

  it("PUT with B's key answers 404 NOT_FOUND and A's contact is unchanged", async () => {
    for (const key of [keyB, adminB]) {
      const res = await server.rest('PUT', `/v1/crm/contacts/${contactA.id}`, {
        key,
        body: { company: 'Hijacked', email: 'hijack@tenant-b.example.com', phone: null },
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    await expectAUnchanged();
  });

  it("DELETE with B's key answers 404 NOT_FOUND and A's contact still exists", async () => {
    for (const key of [keyB, adminB]) {
      const res = await server.rest('DELETE', `/v1/crm/contacts/${contactA.id}`, { key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    await expectAUnchanged();
  });

  it("GraphQL contact, updateContact and deleteContact with B's key answer NOT_FOUND", async () => {
    const get = await gql(keyB, `query ($id: ID!) { contact(id: $id) { ${CONTACT_FIELDS} } }`, { id: contactA.id });
    expect(get.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // A lookup by id is nullable: null in its place, nothing of A's.
    expect(get.body.data).toEqual({ contact: null });

    const update = await gql(
      keyB,
      `mutation ($id: ID!) { updateContact(id: $id, input: { company: "Hijacked" }) { id company } }`,
      { id: contactA.id },
    );
    expect(update.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    const remove = await gql(keyB, `mutation ($id: ID!) { deleteContact(id: $id) }`, { id: contactA.id });
    expect(remove.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    await expectAUnchanged();
  });

  it("answers exactly as for an id that does not exist, so B cannot probe A's ids", async () => {
    const foreign = await server.rest('GET', `/v1/crm/contacts/${contactA.id}`, { key: keyB });
    const missing = await server.rest('GET', '/v1/crm/contacts/con_01aaaaaaaaaaaaaaaaaaaaaaaa', { key: keyB });
    expect(foreign.status).toBe(missing.status);
    expect(foreign.body).toEqual(missing.body);
  });
});

describe('email uniqueness is per organization', () => {
  it('the same email can exist in both organizations, and each sees only its own', async () => {
    const email = 'shared@example.com';
    const inA = await server.rest('POST', '/v1/crm/contacts', { key: keyA, body: { email, firstName: 'A' } });
    expect(inA.status).toBe(201);
    const inB = await server.rest('POST', '/v1/crm/contacts', {
      key: keyB,
      body: { email: 'Shared@Example.com', firstName: 'B' },
    });
    expect(inB.status).toBe(201);
    expect(inB.body.id).not.toBe(inA.body.id);
    expect(inB.body.email).toBe(email);

    const listA = await server.rest('GET', `/v1/crm/contacts?email=${email}`, { key: keyA });
    expect(listA.body.data).toEqual([inA.body]);
    const listB = await server.rest('GET', `/v1/crm/contacts?email=${email}`, { key: keyB });
    expect(listB.body.data).toEqual([inB.body]);

    // Still unique within each organization.
    const again = await server.rest('POST', '/v1/crm/contacts', { key: keyB, body: { email } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', field: 'email' });
  });

  it("B can change a contact's email to one that exists only in A", async () => {
    const inA = await server.rest('POST', '/v1/crm/contacts', {
      key: keyA,
      body: { email: 'only-in-a@example.com' },
    });
    expect(inA.status).toBe(201);
    const other = await server.rest('POST', '/v1/crm/contacts', {
      key: keyB,
      body: { email: 'mover@tenant-b.example.com' },
    });
    const res = await server.rest('PUT', `/v1/crm/contacts/${other.body.id}`, {
      key: keyB,
      body: { email: 'only-in-a@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('only-in-a@example.com');
    const stillA = await server.rest('GET', `/v1/crm/contacts/${inA.body.id}`, { key: keyA });
    expect(stillA.body).toEqual(inA.body);
  });

  it('the same email can be created through GraphQL in both organizations', async () => {
    const create = `mutation ($email: String!) { createContact(input: { email: $email }) { id email } }`;
    const a = await gql(keyA, create, { email: 'gql-shared@example.com' });
    const b = await gql(keyB, create, { email: 'gql-shared@example.com' });
    expect(a.body.errors, a.text).toBeUndefined();
    expect(b.body.errors, b.text).toBeUndefined();
    expect(a.body.data.createContact.id).not.toBe(b.body.data.createContact.id);
  });
});

describe('events', () => {
  it("B's events list does not include A's events", async () => {
    // Events of A: a create and an update.
    const aCreated = await server.rest('POST', '/v1/crm/contacts', {
      key: keyA,
      body: { email: 'evt@tenant-a.example.com' },
    });
    await server.rest('PUT', `/v1/crm/contacts/${aCreated.body.id}`, { key: keyA, body: { company: 'A Events' } });
    const eventsA = await server.rest('GET', '/v1/events?limit=100', { key: keyA });
    expect(eventsA.status).toBe(200);
    const aEventIds = eventsA.body.data.map((e: { id: string }) => e.id);
    const aSubjects = eventsA.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id);
    expect(aSubjects).toContain(aCreated.body.id);
    expect(aSubjects).toContain(contactA.id);

    const bCreated = await server.rest('POST', '/v1/crm/contacts', {
      key: keyB,
      body: { email: 'evt@tenant-b.example.com' },
    });
    for (const key of [keyB, adminB]) {
      const eventsB = await server.rest('GET', '/v1/events?limit=100', { key });
      expect(eventsB.status).toBe(200);
      const bIds = eventsB.body.data.map((e: { id: string }) => e.id);
      const bSubjects = eventsB.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id);
      expect(bSubjects).toContain(bCreated.body.id);
      for (const id of aEventIds) expect(bIds).not.toContain(id);
      expect(bSubjects).not.toContain(aCreated.body.id);
      expect(bSubjects).not.toContain(contactA.id);
      expect(eventsB.text).not.toContain('tenant-a.example.com');
    }

    // Filtered by type, and one by one.
    const created = await server.rest('GET', '/v1/events?type=contact.created&limit=100', { key: keyB });
    for (const id of aEventIds) expect(created.body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    const one = await server.rest('GET', `/v1/events/${aEventIds[0]}`, { key: keyB });
    expect(one.status).toBe(404);
    expect(one.body.error.code).toBe('NOT_FOUND');
    expect((await server.rest('GET', `/v1/events/${aEventIds[0]}`, { key: keyA })).status).toBe(200);
  });

  it("B's GraphQL events query does not include A's events", async () => {
    const eventsA = await gql(keyA, `query { events(limit: 100) { data { id } } }`);
    const aIds = eventsA.body.data.events.data.map((e: { id: string }) => e.id);
    expect(aIds.length).toBeGreaterThan(0);
    const eventsB = await gql(keyB, `query { events(limit: 100) { data { id } } }`);
    expect(eventsB.body.errors, eventsB.text).toBeUndefined();
    for (const id of aIds) expect(eventsB.body.data.events.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });
});
