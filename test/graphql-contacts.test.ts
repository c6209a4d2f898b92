// Contacts through POST /graphql, as an integrator's GraphQL client sees them,
// and the same records seen through REST.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type GraphQLError, type TestResponse } from './support/fixtures.js';

const server = useServer();
const { gql } = server;
let key: string;
let readKey: string;
let writeOnlyKey: string;
let adminKey: string;

beforeAll(async () => {
  const org = await server.org();
  key = await org.key(['crm:read', 'crm:write']);
  readKey = await org.key(['crm:read']);
  writeOnlyKey = await org.key(['crm:write']);
  adminKey = await org.key(['admin']);
});

const CONTACT_FIELDS = 'id firstName lastName email company phone tags paymentTermsDays createdAt updatedAt';
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const CREATE = `mutation ($input: CreateContactInput!) { createContact(input: $input) { ${CONTACT_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateContactInput!) { updateContact(id: $id, input: $input) { ${CONTACT_FIELDS} } }`;
const DELETE = `mutation ($id: ID!) { deleteContact(id: $id) }`;
const GET = `query ($id: ID!) { contact(id: $id) { ${CONTACT_FIELDS} } }`;
const LIST = `query ($page: Int, $limit: Int, $sort: ContactSort, $email: String, $company: String, $tag: String, $q: String) {
  contacts(page: $page, limit: $limit, sort: $sort, email: $email, company: $company, tag: $tag, q: $q) {
    data { ${CONTACT_FIELDS} } pagination { page limit total pages totalExact next } } }`;

/** The single error of a failed operation, checked for leaks of internals. */
function onlyError(res: TestResponse): GraphQLError {
  expect(res.body, res.text).toBeDefined();
  expect(res.body.errors, res.text).toHaveLength(1);
  const error = res.body.errors[0] as GraphQLError;
  expect(error.message).toEqual(expect.any(String));
  expectNoInternals(error);
  return error;
}

function expectNoInternals(error: GraphQLError): void {
  const text = JSON.stringify(error);
  expect(error.extensions?.stacktrace).toBeUndefined();
  expect(error.extensions?.exception).toBeUndefined();
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+|node_modules/);
  expect(text).not.toMatch(/\b(select|insert|update|delete)\b[^"]*\b(from|into|set|where)\b/i);
  expect(text).not.toMatch(/prisma|P\d{4}\b|duplicate key|constraint|postgres/i);
}

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.com`;

async function createContact(input: Record<string, unknown>, withKey = key) {
  const res = await gql(CREATE, { input }, { key: withKey });
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data.createContact;
}

describe('createContact', () => {
  it('creates a contact and returns the whole record', async () => {
    const res = await gql(
      CREATE,
      {
        input: {
          firstName: 'Grace',
          lastName: 'Hopper',
          email: ' Grace@Navy.example.com ',
          company: 'US Navy',
          phone: '+1 202 555 0100',
          tags: ['cobol', 'navy', 'cobol'],
        },
      },
      { key },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors, res.text).toBeUndefined();
    const contact = res.body.data.createContact;
    expect(contact).toEqual({
      id: expect.stringMatching(/^con_/),
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example.com',
      company: 'US Navy',
      phone: '+1 202 555 0100',
      tags: ['cobol', 'navy'],
      paymentTermsDays: null,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(Math.abs(Date.parse(contact.createdAt) - Date.now())).toBeLessThan(60_000);

    const fetched = await gql(GET, { id: contact.id }, { key });
    expect(fetched.body.data.contact).toEqual(contact);
  });

  it('creates a contact with only an email; optional fields are null and tags empty', async () => {
    const contact = await createContact({ email: 'only@example.com' });
    expect(contact).toMatchObject({
      email: 'only@example.com',
      firstName: null,
      lastName: null,
      company: null,
      phone: null,
      tags: [],
    });
  });

  it('rejects a missing email with VALIDATION_ERROR naming email (variables)', async () => {
    const res = await gql(CREATE, { input: { firstName: 'No', lastName: 'Mail' } }, { key });
    const error = onlyError(res);
    expect(error.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
    expect(res.body.data ?? null).toBeNull();
  });

  it("rejects a missing email with Apollo's GRAPHQL_VALIDATION_FAILED naming email (inline input)", async () => {
    const res = await gql(
      `mutation { createContact(input: { firstName: "No", lastName: "Mail" }) { id } }`,
      {},
      { key },
    );
    const error = onlyError(res);
    // The document itself is invalid: Apollo's code, which GraphQL clients look for (issue 23).
    expect(error.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', field: 'email' });
  });

  it('rejects a null email with VALIDATION_ERROR naming email', async () => {
    const res = await gql(CREATE, { input: { email: null, firstName: 'Null' } }, { key });
    const error = onlyError(res);
    expect(error.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
  });

  it('rejects an invalid email with VALIDATION_ERROR naming email, and creates nothing', async () => {
    const res = await gql(CREATE, { input: { email: 'not-an-email', firstName: 'Bad' } }, { key });
    const error = onlyError(res);
    expect(error.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
    expect(res.body.data).toBeNull();
    const list = await gql(LIST, { q: 'not-an-email' }, { key });
    expect(list.body.data.contacts.pagination.total).toBe(0);
  });

  it('rejects other invalid fields naming them', async () => {
    const emptyName = await gql(CREATE, { input: { email: uniqueEmail('empty'), firstName: '   ' } }, { key });
    expect(onlyError(emptyName).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'firstName' });
    const phone = await gql(CREATE, { input: { email: uniqueEmail('phone'), phone: 'call me' } }, { key });
    expect(onlyError(phone).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'phone' });
  });

  it('answers CONFLICT naming email for a duplicate, whatever its case', async () => {
    await createContact({ email: 'twice@example.com' });
    const res = await gql(CREATE, { input: { email: 'TWICE@example.com' } }, { key });
    const error = onlyError(res);
    expect(error.extensions).toMatchObject({ code: 'CONFLICT', field: 'email' });
    const list = await gql(LIST, { email: 'twice@example.com' }, { key });
    expect(list.body.data.contacts.pagination.total).toBe(1);
  });
});

describe('contacts and contact', () => {
  let listKey: string;
  const created: { id: string; email: string; company: string | null; tags: string[] }[] = [];

  beforeAll(async () => {
    // A fresh organization so counts are exact.
    listKey = await (await server.org()).key(['crm:read', 'crm:write']);
    for (let i = 1; i <= 5; i++) {
      created.push(
        await createContact(
          {
            firstName: `Person${i}`,
            lastName: i % 2 ? 'Odd' : 'Even',
            email: `person${i}@list.example.com`,
            company: i <= 2 ? 'Acme' : 'Globex',
            tags: i === 3 ? ['vip'] : [],
          },
          listKey,
        ),
      );
      // Distinct milliseconds, so creation order is also createdAt and id (ULID) order.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  it('returns data and pagination with defaults page 1 and limit 50', async () => {
    const res = await gql(LIST, {}, { key: listKey });
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.contacts.pagination).toEqual({
      page: 1,
      limit: 50,
      total: 5,
      pages: 1,
      totalExact: true,
      next: null,
    });
    expect(res.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual(created.map((c) => c.id));
    expect(res.body.data.contacts.data[0]).toEqual(created[0]);
  });

  it('pages through with page and limit, past the end answering empty data with the true pagination', async () => {
    const first = await gql(LIST, { page: 1, limit: 2 }, { key: listKey });
    expect(first.body.data.contacts.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      pages: 3,
      totalExact: true,
      next: expect.any(String),
    });
    expect(first.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual([created[0]!.id, created[1]!.id]);
    const last = await gql(LIST, { page: 3, limit: 2 }, { key: listKey });
    expect(last.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual([created[4]!.id]);
    const past = await gql(LIST, { page: 9, limit: 2 }, { key: listKey });
    expect(past.body.data.contacts).toEqual({
      data: [],
      pagination: { page: 9, limit: 2, total: 5, pages: 3, totalExact: true, next: null },
    });
  });

  it('filters by email, company, tag and q', async () => {
    const byEmail = await gql(LIST, { email: 'PERSON2@list.example.com' }, { key: listKey });
    expect(byEmail.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual([created[1]!.id]);

    const byCompany = await gql(LIST, { company: 'acme' }, { key: listKey });
    expect(byCompany.body.data.contacts.pagination.total).toBe(2);

    const byTag = await gql(LIST, { tag: 'vip' }, { key: listKey });
    expect(byTag.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual([created[2]!.id]);

    const byText = await gql(LIST, { q: 'even' }, { key: listKey });
    expect(byText.body.data.contacts.data.map((c: { id: string }) => c.id)).toEqual([created[1]!.id, created[3]!.id]);
  });

  it('sorts by any documented field, ascending or descending (the ContactSort enum: field, field_desc)', async () => {
    const ids = (res: TestResponse) => {
      expect(res.body.errors, res.text).toBeUndefined();
      return res.body.data.contacts.data.map((c: { id: string }) => c.id);
    };
    const byEmailDesc = await gql(LIST, { sort: 'email_desc' }, { key: listKey });
    expect(ids(byEmailDesc)).toEqual([...created].reverse().map((c) => c.id));
    const byCreatedDesc = await gql(LIST, { sort: 'createdAt_desc' }, { key: listKey });
    expect(ids(byCreatedDesc)).toEqual([...created].reverse().map((c) => c.id));
    const byUpdated = await gql(LIST, { sort: 'updatedAt' }, { key: listKey });
    expect(ids(byUpdated)).toEqual(created.map((c) => c.id));
    const byLastName = await gql(LIST, { sort: 'lastName' }, { key: listKey });
    expect(ids(byLastName)).toEqual([created[1]!.id, created[3]!.id, created[0]!.id, created[2]!.id, created[4]!.id]);
  });

  it('rejects an unknown sort field naming sort', async () => {
    const res = await gql(LIST, { sort: 'password' }, { key: listKey });
    expect(onlyError(res).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'sort' });
  });

  it('rejects out-of-range page and limit naming the argument', async () => {
    const limit = await gql(LIST, { limit: 101 }, { key: listKey });
    expect(onlyError(limit).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
    const page = await gql(LIST, { page: 0 }, { key: listKey });
    expect(onlyError(page).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });
  });

  it('answers NOT_FOUND for an unknown id, and null in its place only', async () => {
    const res = await gql(GET, { id: 'con_doesnotexist' }, { key: listKey });
    const error = onlyError(res);
    expect(error.extensions?.code).toBe('NOT_FOUND');
    expect((error as { path?: unknown }).path).toEqual(['contact']);
    // A lookup by id is nullable (issue 23): the rest of an answer survives a missing record.
    expect(res.body.data).toEqual({ contact: null });
  });
});

describe('updateContact', () => {
  it('changes sent fields, keeps omitted ones and clears with null', async () => {
    const created = await createContact({
      firstName: 'Alan',
      lastName: 'Turing',
      email: uniqueEmail('alan'),
      company: 'Bletchley',
      phone: '+44 1908 640404',
      tags: ['enigma'],
    });
    const res = await gql(
      UPDATE,
      { id: created.id, input: { company: 'Manchester', phone: null, tags: null } },
      { key },
    );
    expect(res.body.errors, res.text).toBeUndefined();
    const updated = res.body.data.updateContact;
    expect(updated).toEqual({
      ...created,
      company: 'Manchester',
      phone: null,
      tags: [],
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((await gql(GET, { id: created.id }, { key })).body.data.contact).toEqual(updated);
  });

  it('changes the email (normalised) and refuses to clear it', async () => {
    const created = await createContact({ email: uniqueEmail('mover') });
    const moved = await gql(UPDATE, { id: created.id, input: { email: 'Moved@Example.com' } }, { key });
    expect(moved.body.data.updateContact.email).toBe('moved@example.com');

    const cleared = await gql(UPDATE, { id: created.id, input: { email: null } }, { key });
    expect(onlyError(cleared).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
    const invalid = await gql(UPDATE, { id: created.id, input: { email: 'nope' } }, { key });
    expect(onlyError(invalid).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
    expect((await gql(GET, { id: created.id }, { key })).body.data.contact.email).toBe('moved@example.com');
  });

  it('answers CONFLICT naming email when the new email belongs to another contact', async () => {
    const taken = await createContact({ email: uniqueEmail('taken') });
    const other = await createContact({ email: uniqueEmail('other') });
    const res = await gql(UPDATE, { id: other.id, input: { email: taken.email.toUpperCase() } }, { key });
    expect(onlyError(res).extensions).toMatchObject({ code: 'CONFLICT', field: 'email' });
    expect((await gql(GET, { id: other.id }, { key })).body.data.contact.email).toBe(other.email);
  });

  it('answers NOT_FOUND for an unknown id', async () => {
    const res = await gql(UPDATE, { id: 'con_doesnotexist', input: { company: 'X' } }, { key });
    expect(onlyError(res).extensions?.code).toBe('NOT_FOUND');
  });
});

describe('deleteContact', () => {
  it('returns true, after which the contact is gone and a second delete is NOT_FOUND', async () => {
    const created = await createContact({ email: uniqueEmail('gone') });
    const res = await gql(DELETE, { id: created.id }, { key });
    expect(res.body).toEqual({ data: { deleteContact: true } });

    expect(onlyError(await gql(GET, { id: created.id }, { key })).extensions?.code).toBe('NOT_FOUND');
    expect(onlyError(await gql(DELETE, { id: created.id }, { key })).extensions?.code).toBe('NOT_FOUND');
    expect((await server.rest('GET', `/v1/crm/contacts/${created.id}`, { key })).status).toBe(404);
  });
});

describe('authentication', () => {
  const operations: [string, string, Record<string, unknown>][] = [
    ['contacts', LIST, {}],
    ['contact', GET, { id: 'con_x' }],
    ['createContact', CREATE, { input: { email: 'anon@example.com' } }],
    ['updateContact', UPDATE, { id: 'con_x', input: { company: 'X' } }],
    ['deleteContact', DELETE, { id: 'con_x' }],
  ];

  it.each(operations)('%s without an Authorization header fails with UNAUTHORIZED', async (_name, query, vars) => {
    const error = onlyError(await gql(query, vars));
    expect(error.extensions?.code).toBe('UNAUTHORIZED');
  });

  it.each(operations)('%s with an unknown key fails with UNAUTHORIZED', async (_name, query, vars) => {
    const error = onlyError(await gql(query, vars, { key: 'bpk_' + 'x'.repeat(40) }));
    expect(error.extensions?.code).toBe('UNAUTHORIZED');
  });

  it('a malformed or non-Bearer Authorization header fails with UNAUTHORIZED', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${key} extra`, 'Token abc']) {
      const error = onlyError(await gql(LIST, {}, { headers: { authorization } }));
      expect(error.extensions?.code, authorization).toBe('UNAUTHORIZED');
    }
  });

  it('an unauthenticated createContact creates nothing', async () => {
    const email = uniqueEmail('anon');
    onlyError(await gql(CREATE, { input: { email } }));
    const list = await gql(LIST, { email }, { key });
    expect(list.body.data.contacts.pagination.total).toBe(0);
  });
});

describe('scopes', () => {
  it('a crm:read key can list and read but gets FORBIDDEN naming crm:write on every mutation', async () => {
    const created = await createContact({ email: uniqueEmail('scoped') });
    expect((await gql(LIST, {}, { key: readKey })).body.errors).toBeUndefined();
    expect((await gql(GET, { id: created.id }, { key: readKey })).body.data.contact).toEqual(created);

    const email = uniqueEmail('forbidden');
    const create = onlyError(await gql(CREATE, { input: { email } }, { key: readKey }));
    expect(create.extensions?.code).toBe('FORBIDDEN');
    expect(create.message).toContain('crm:write');

    const update = onlyError(await gql(UPDATE, { id: created.id, input: { company: 'Nope' } }, { key: readKey }));
    expect(update.extensions?.code).toBe('FORBIDDEN');
    expect(update.message).toContain('crm:write');

    const remove = onlyError(await gql(DELETE, { id: created.id }, { key: readKey }));
    expect(remove.extensions?.code).toBe('FORBIDDEN');
    expect(remove.message).toContain('crm:write');

    // Nothing changed.
    expect((await gql(GET, { id: created.id }, { key })).body.data.contact).toEqual(created);
    expect((await gql(LIST, { email }, { key })).body.data.contacts.pagination.total).toBe(0);
  });

  it('a crm:read key gets FORBIDDEN (not a validation error) for an invalid createContact', async () => {
    const error = onlyError(await gql(CREATE, { input: { email: 'not-an-email' } }, { key: readKey }));
    expect(error.extensions?.code).toBe('FORBIDDEN');
  });

  it('a crm:write-only key gets FORBIDDEN naming crm:read on queries', async () => {
    const list = onlyError(await gql(LIST, {}, { key: writeOnlyKey }));
    expect(list.extensions?.code).toBe('FORBIDDEN');
    expect(list.message).toContain('crm:read');
    const get = onlyError(await gql(GET, { id: 'con_x' }, { key: writeOnlyKey }));
    expect(get.extensions?.code).toBe('FORBIDDEN');
    expect(get.message).toContain('crm:read');
  });

  it('an admin key can do everything', async () => {
    const created = await createContact({ email: uniqueEmail('admin') }, adminKey);
    expect((await gql(GET, { id: created.id }, { key: adminKey })).body.data.contact).toEqual(created);
    const listed = await gql(LIST, { email: created.email }, { key: adminKey });
    expect(listed.body.data.contacts.data).toEqual([created]);
    const updated = await gql(UPDATE, { id: created.id, input: { company: 'Admin Inc' } }, { key: adminKey });
    expect(updated.body.data.updateContact.company).toBe('Admin Inc');
    expect((await gql(DELETE, { id: created.id }, { key: adminKey })).body).toEqual({
      data: { deleteContact: true },
    });
  });
});

describe('GraphQL and REST show the same contact', () => {
  it('a contact created through GraphQL reads identically through REST', async () => {
    const created = await createContact({
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: uniqueEmail('katherine'),
      company: 'NASA',
      phone: '+1 757 555 0199',
      tags: ['orbit'],
    });
    const rest = await server.rest('GET', `/v1/crm/contacts/${created.id}`, { key });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(created);
  });

  it('a contact created through REST reads identically through GraphQL, and REST updates show in GraphQL', async () => {
    const rest = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { firstName: 'Dorothy', lastName: 'Vaughan', email: uniqueEmail('dorothy'), tags: ['fortran'] },
    });
    expect(rest.status).toBe(201);
    const viaGraphQL = await gql(GET, { id: rest.body.id }, { key });
    expect(viaGraphQL.body.data.contact).toEqual(rest.body);

    const put = await server.rest('PUT', `/v1/crm/contacts/${rest.body.id}`, { key, body: { company: 'NACA' } });
    expect((await gql(GET, { id: rest.body.id }, { key })).body.data.contact).toEqual(put.body);

    const updated = await gql(UPDATE, { id: rest.body.id, input: { lastName: null } }, { key });
    expect((await server.rest('GET', `/v1/crm/contacts/${rest.body.id}`, { key })).body).toEqual(
      updated.body.data.updateContact,
    );
  });

  it('GraphQL and REST lists agree', async () => {
    const viaGraphQL = await gql(LIST, { limit: 100 }, { key });
    const viaRest = await server.rest('GET', '/v1/crm/contacts?limit=100', { key });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual(viaGraphQL.body.data.contacts);
  });
});

describe('error hygiene', () => {
  it("a document error carries Apollo's code, without internals", async () => {
    const unknownField = onlyError(await gql(`query { contacts { data { password } } }`, {}, { key }));
    expect(unknownField.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const syntax = await gql(`query { contacts( }`, {}, { key });
    expect(syntax.body.errors.length).toBeGreaterThan(0);
    for (const error of syntax.body.errors) {
      expect(error.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
      expectNoInternals(error);
    }
  });

  it('a wrongly typed input field is a VALIDATION_ERROR naming the field', async () => {
    const error = onlyError(await gql(CREATE, { input: { email: 42 } }, { key }));
    expect(error.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
  });
});
