// Users through REST and GraphQL, as an organization's admin manages them:
// who may sign in, with which role and scopes. Passwords go in, never come out.
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal, type Principal } from '../src/auth/principal.js';
import { verifyPassword } from '../src/auth/passwords.js';
import { grantableScopes, userScopes } from '../src/auth/user-scopes.js';
import { useServer, type GraphQLError, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer();
let org: TestOrg;
let admin: string;

beforeAll(async () => {
  org = await server.org();
  admin = await org.key(['admin']);
});

const PASSWORD = 'correct horse battery staple';
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const USER_FIELDS = 'id email name role scopes employeeId createdAt updatedAt';

const CREATE = `mutation ($input: CreateUserInput!) { createUser(input: $input) { ${USER_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { ${USER_FIELDS} } }`;
const DELETE = `mutation ($id: ID!) { deleteUser(id: $id) }`;
const GET = `query ($id: ID!) { user(id: $id) { ${USER_FIELDS} } }`;
const LIST = `query ($role: UserRole, $q: String, $sort: UserSort) {
  users(role: $role, q: $q, sort: $sort) { data { ${USER_FIELDS} } pagination { total } } }`;

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@users.example.com`;

type Body = Record<string, unknown>;

const memberBody = (overrides: Body = {}): Body => ({
  email: uniqueEmail('member'),
  name: 'Mia Member',
  role: 'member',
  scopes: ['crm:read'],
  password: PASSWORD,
  ...overrides,
});

/** The same body as GraphQL takes it: scopes are the `Scope` enum's names (`crm_read`). */
const inGraphQL = (body: Body): Body => ({
  ...body,
  ...(Array.isArray(body.scopes) && { scopes: body.scopes.map((scope: string) => scope.replace(':', '_')) }),
});

async function createUser(body: Body, key = admin) {
  const res = await server.rest('POST', '/v1/users', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function storedHash(id: string): Promise<string> {
  return (await server.prisma.user.findUniqueOrThrow({ where: { id } })).passwordHash;
}

function expectError(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String) });
  expect(res.body.error.field).toBe(field);
}

function onlyError(res: TestResponse): GraphQLError {
  expect(res.body.errors, res.text).toHaveLength(1);
  return res.body.errors[0] as GraphQLError;
}

/** An answer that shows nothing of a password: no field, no hash, not the password itself. */
function expectNoPassword(res: TestResponse, password = PASSWORD) {
  expect(res.text).not.toMatch(/password/i);
  expect(res.text).not.toContain('scrypt');
  expect(res.text).not.toContain(password);
}

/** A fresh organization, its admin key and the id of its (only) admin user. */
async function freshOrg() {
  const created = await server.org();
  const key = await created.key(['admin']);
  const admins = await server.rest('GET', '/v1/users?role=admin', { key });
  expect(admins.body.data, admins.text).toHaveLength(1);
  return { org: created, key, adminId: admins.body.data[0].id as string };
}

describe('REST /v1/users', () => {
  it('creates a member: 201 with the whole record, email lower-cased, password stored as a hash', async () => {
    const email = uniqueEmail('ada');
    const res = await server.rest('POST', '/v1/users', {
      key: admin,
      body: {
        email: ` ${email.toUpperCase()} `,
        name: 'Ada',
        role: 'member',
        scopes: ['crm:read', 'crm:write'],
        password: PASSWORD,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^usr_/),
      email,
      name: 'Ada',
      role: 'member',
      scopes: ['crm:read', 'crm:write'],
      employeeId: null,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expectNoPassword(res);

    const fetched = await server.rest('GET', `/v1/users/${res.body.id}`, { key: admin });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
    expect(await verifyPassword(PASSWORD, await storedHash(res.body.id))).toBe(true);
  });

  it('creates an admin, whose scopes are ["admin"] whether omitted or sent as such', async () => {
    const omitted = await createUser({ email: uniqueEmail('root'), role: 'admin', password: PASSWORD });
    expect(omitted).toMatchObject({ role: 'admin', scopes: ['admin'], name: null });
    const sent = await createUser({ email: uniqueEmail('root'), role: 'admin', scopes: ['admin'], password: PASSWORD });
    expect(sent.scopes).toEqual(['admin']);
  });

  it('lists the organization’s users with role and text filters and sorting', async () => {
    const { key, adminId } = await freshOrg();
    const zoe = await createUser(memberBody({ email: uniqueEmail('zoe'), name: 'Zoe Zed' }), key);
    const bob = await createUser(memberBody({ email: uniqueEmail('bob'), name: 'Bob Bee', scopes: [] }), key);
    const ann = await createUser(
      { email: uniqueEmail('ann'), name: 'Ann Admin', role: 'admin', password: PASSWORD },
      key,
    );

    const all = await server.rest('GET', '/v1/users', { key });
    expect(all.status).toBe(200);
    expect(all.body.data.map((u: Body) => u.id)).toEqual([adminId, zoe.id, bob.id, ann.id]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 50, total: 4, pages: 1, totalExact: true, next: null });
    expect(all.body.data[1]).toEqual(zoe);
    expectNoPassword(all);

    const members = await server.rest('GET', '/v1/users?role=member&sort=-email', { key });
    expect(members.body.data.map((u: Body) => u.id)).toEqual([zoe.id, bob.id]);
    const admins = await server.rest('GET', '/v1/users?role=admin', { key });
    expect(admins.body.data.map((u: Body) => u.id)).toEqual([adminId, ann.id]);

    const byName = await server.rest('GET', '/v1/users?q=bee', { key });
    expect(byName.body.data.map((u: Body) => u.id)).toEqual([bob.id]);
    const byEmail = await server.rest('GET', `/v1/users?q=${encodeURIComponent('ZOE-')}`, { key });
    expect(byEmail.body.data.map((u: Body) => u.id)).toEqual([zoe.id]);
    const literal = await server.rest('GET', '/v1/users?q=%25', { key });
    expect(literal.body.data).toEqual([]);

    const byNameSorted = await server.rest('GET', '/v1/users?sort=name&role=member', { key });
    expect(byNameSorted.body.data.map((u: Body) => u.name)).toEqual(['Bob Bee', 'Zoe Zed']);

    expectError(await server.rest('GET', '/v1/users?role=owner', { key }), 400, 'VALIDATION_ERROR', 'role');
    expectError(await server.rest('GET', '/v1/users?sort=password', { key }), 400, 'VALIDATION_ERROR', 'sort');
  });

  it('updates sent fields, keeps omitted ones, clears the name with null', async () => {
    const created = await createUser(memberBody({ name: 'Before' }));
    const newEmail = uniqueEmail('Renamed');
    const res = await server.rest('PUT', `/v1/users/${created.id}`, {
      key: admin,
      body: { name: null, email: newEmail.toUpperCase(), scopes: ['hr:read', 'crm:read'] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...created,
      name: null,
      email: newEmail.toLowerCase(),
      scopes: ['hr:read', 'crm:read'],
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((await server.rest('GET', `/v1/users/${created.id}`, { key: admin })).body).toEqual(res.body);

    const unchanged = await server.rest('PUT', `/v1/users/${created.id}`, { key: admin, body: {} });
    expect(unchanged.body).toEqual(res.body);
  });

  it('deletes for good: 204 with an empty body, then 404', async () => {
    const created = await createUser(memberBody());
    const res = await server.rest('DELETE', `/v1/users/${created.id}`, { key: admin });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await server.rest('GET', `/v1/users/${created.id}`, { key: admin }), 404, 'NOT_FOUND');
    expectError(await server.rest('DELETE', `/v1/users/${created.id}`, { key: admin }), 404, 'NOT_FOUND');
    expectError(
      await server.rest('PUT', `/v1/users/${created.id}`, { key: admin, body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
    // The address is free again.
    await createUser(memberBody({ email: created.email }));
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['usr_01jzzzzzzzzzzzzzzzzzzzzzzz', 'usr_nope', 'con_01jzzzzzzzzzzzzzzzzzzzzzzz']) {
      expectError(await server.rest('GET', `/v1/users/${id}`, { key: admin }), 404, 'NOT_FOUND');
    }
  });
});

describe('GraphQL users', () => {
  it('creates, reads, lists, updates and deletes a user', async () => {
    const email = uniqueEmail('grace');
    const created = await server.gql(
      CREATE,
      { input: { email, name: 'Grace', role: 'member', scopes: ['crm_read'], password: PASSWORD } },
      { key: admin },
    );
    expect(created.errors, created.text).toBeUndefined();
    const user = created.data.createUser;
    expect(user).toMatchObject({ email, name: 'Grace', role: 'member', scopes: ['crm_read'] });
    expectNoPassword(created);

    const read = await server.gql(GET, { id: user.id }, { key: admin });
    expect(read.data.user).toEqual(user);
    // The REST answer is the same record, its scopes spelt as REST writes them.
    expect((await server.rest('GET', `/v1/users/${user.id}`, { key: admin })).body).toEqual({
      ...user,
      scopes: ['crm:read'],
    });

    const listed = await server.gql(LIST, { role: 'member', q: 'grace' }, { key: admin });
    expect(listed.errors, listed.text).toBeUndefined();
    expect(listed.data.users.data).toEqual([user]);

    const updated = await server.gql(
      UPDATE,
      { id: user.id, input: { name: 'Grace Hopper', scopes: ['crm_read', 'crm_write'] } },
      { key: admin },
    );
    expect(updated.errors, updated.text).toBeUndefined();
    expect(updated.data.updateUser).toMatchObject({ name: 'Grace Hopper', scopes: ['crm_read', 'crm_write'] });

    const deleted = await server.gql(DELETE, { id: user.id }, { key: admin });
    expect(deleted.data, deleted.text).toEqual({ deleteUser: true });
    expect(onlyError(await server.gql(GET, { id: user.id }, { key: admin })).extensions?.code).toBe('NOT_FOUND');
  });

  it('has no password field to select', async () => {
    const user = await createUser(memberBody());
    for (const field of ['password', 'passwordHash']) {
      const res = await server.gql(
        `query ($id: ID!) { user(id: $id) { id ${field} } }`,
        { id: user.id },
        { key: admin },
      );
      expect(res.data ?? undefined).toBeUndefined();
      expect(onlyError(res).extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.text).not.toContain('scrypt');
    }
    const type = await server.gql(`{ __type(name: "User") { fields { name } } }`, {}, { key: admin });
    expect(type.data.__type.fields.map((f: { name: string }) => f.name).sort()).toEqual(
      ['createdAt', 'email', 'employeeId', 'id', 'name', 'role', 'scopes', 'updatedAt'].sort(),
    );
  });

  it('names the field of a validation error', async () => {
    const res = await server.gql(CREATE, { input: inGraphQL(memberBody({ password: 'short' })) }, { key: admin });
    expect(onlyError(res).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'password' });
    const missing = await server.gql(CREATE, { input: { email: uniqueEmail('x'), role: 'member' } }, { key: admin });
    expect(onlyError(missing).extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'password' });
  });
});

describe('passwords', () => {
  it('are in no answer: create, get, update, list, REST or GraphQL', async () => {
    const secret = 'never-shown-Pa55word';
    const created = await server.rest('POST', '/v1/users', { key: admin, body: memberBody({ password: secret }) });
    expect(created.status).toBe(201);
    expectNoPassword(created, secret);
    const id = created.body.id;
    expectNoPassword(await server.rest('GET', `/v1/users/${id}`, { key: admin }), secret);
    const changed = 'another-Pa55word';
    const updated = await server.rest('PUT', `/v1/users/${id}`, { key: admin, body: { password: changed } });
    expect(updated.status).toBe(200);
    expectNoPassword(updated, changed);
    expectNoPassword(await server.rest('GET', '/v1/users?limit=100', { key: admin }), changed);
    expectNoPassword(await server.gql(LIST, {}, { key: admin }), changed);
    const gqlUpdate = await server.gql(UPDATE, { id, input: { password: secret } }, { key: admin });
    expect(gqlUpdate.errors, gqlUpdate.text).toBeUndefined();
    expectNoPassword(gqlUpdate, secret);
  });

  it('are not in the OpenAPI answers; the create body documents one as write-only', async () => {
    const res = await server.rest('GET', '/v1/openapi.json');
    const doc = res.body;
    expect(Object.keys(doc.components.schemas.User.properties).sort()).toEqual(
      ['createdAt', 'email', 'employeeId', 'id', 'name', 'role', 'scopes', 'updatedAt'].sort(),
    );
    for (const [method, path] of [
      ['get', '/users'],
      ['post', '/users'],
      ['get', '/users/{id}'],
      ['put', '/users/{id}'],
    ] as const) {
      const operation = doc.paths[path][method];
      expect(operation.security).toEqual([{ bearerAuth: ['admin'] }, { oauth2: ['admin'] }]);
      const success = operation.responses[method === 'post' ? '201' : '200'];
      expect(JSON.stringify(success)).not.toMatch(/password/i);
    }
    expect(doc.paths['/users/{id}'].delete.security).toEqual([{ bearerAuth: ['admin'] }, { oauth2: ['admin'] }]);
    const { $ref } = doc.paths['/users'].post.requestBody.content['application/json'].schema;
    const body = doc.components.schemas[$ref.replace('#/components/schemas/', '')];
    expect(body.required).toEqual(expect.arrayContaining(['email', 'role', 'password']));
    expect(body.properties.password).toMatchObject({ type: 'string', minLength: 8, writeOnly: true });
  });

  it('can be changed, and the new one verifies against the stored hash', async () => {
    const user = await createUser(memberBody());
    const before = await storedHash(user.id);
    expect(await verifyPassword(PASSWORD, before)).toBe(true);

    const res = await server.rest('PUT', `/v1/users/${user.id}`, {
      key: admin,
      body: { password: 'brand new secret' },
    });
    expect(res.status, res.text).toBe(200);
    const after = await storedHash(user.id);
    expect(after).not.toBe(before);
    expect(await verifyPassword('brand new secret', after)).toBe(true);
    expect(await verifyPassword(PASSWORD, after)).toBe(false);

    // An update without a password leaves it alone.
    await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { name: 'Renamed' } });
    expect(await storedHash(user.id)).toBe(after);
  });

  it('must be a string of at least 8 characters, and cannot be cleared', async () => {
    const user = await createUser(memberBody());
    for (const password of ['short', 12345678, '']) {
      expectError(
        await server.rest('POST', '/v1/users', { key: admin, body: memberBody({ password }) }),
        400,
        'VALIDATION_ERROR',
        'password',
      );
      expectError(
        await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { password } }),
        400,
        'VALIDATION_ERROR',
        'password',
      );
    }
    expectError(
      await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { password: null } }),
      400,
      'VALIDATION_ERROR',
      'password',
    );
    expect(await verifyPassword(PASSWORD, await storedHash(user.id))).toBe(true);
  });
});

describe('email uniqueness (sign-in is by email)', () => {
  it('a duplicate is 409 CONFLICT naming email, whatever its case', async () => {
    const email = uniqueEmail('dup');
    await createUser(memberBody({ email }));
    for (const again of [email, email.toUpperCase(), ` ${email.replace('dup', 'DUP')}`]) {
      expectError(
        await server.rest('POST', '/v1/users', { key: admin, body: memberBody({ email: again }) }),
        409,
        'CONFLICT',
        'email',
      );
    }
  });

  it('is across organizations, and the conflict does not say where the address is used', async () => {
    const email = uniqueEmail('shared');
    await createUser(memberBody({ email }));
    const other = await freshOrg();
    const res = await server.rest('POST', '/v1/users', {
      key: other.key,
      body: memberBody({ email: email.toUpperCase() }),
    });
    expectError(res, 409, 'CONFLICT', 'email');
    expect(res.body.error.message).not.toMatch(/org/i);
    expect(res.text).not.toContain(org.id);
  });

  it('an update to a taken address is 409 too; the user keeps its own', async () => {
    const taken = await createUser(memberBody());
    const user = await createUser(memberBody());
    const res = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { email: taken.email } });
    expectError(res, 409, 'CONFLICT', 'email');
    expect((await server.rest('GET', `/v1/users/${user.id}`, { key: admin })).body.email).toBe(user.email);
    // Its own address, in another case, is no conflict.
    const same = await server.rest('PUT', `/v1/users/${user.id}`, {
      key: admin,
      body: { email: user.email.toUpperCase() },
    });
    expect(same.status, same.text).toBe(200);
  });
});

describe('validation errors name the field', () => {
  const cases: [string, Body, string][] = [
    ['missing email', { email: undefined }, 'email'],
    ['invalid email', { email: 'not-an-email' }, 'email'],
    ['missing password', { password: undefined }, 'password'],
    ['missing role', { role: undefined }, 'role'],
    ['unknown role', { role: 'owner' }, 'role'],
    ['unknown scope (the item named)', { scopes: ['crm:read', 'crm:delete'] }, 'scopes.1'],
    ['scopes not a list', { scopes: 'crm:read' }, 'scopes'],
    ['member without scopes', { scopes: undefined }, 'scopes'],
    ['member holding admin', { scopes: ['crm:read', 'admin'] }, 'scopes'],
    ['admin with other scopes', { role: 'admin', scopes: ['crm:read'] }, 'scopes'],
    ['empty name', { name: '  ' }, 'name'],
    ['name too long', { name: 'x'.repeat(201) }, 'name'],
    ['unknown field', { nickname: 'Ada' }, 'nickname'],
    ['a password hash', { passwordHash: 'scrypt$1$1$1$a$b' }, 'passwordHash'],
  ];
  it.each(cases)('on create: %s', async (_label, overrides, field) => {
    const res = await server.rest('POST', '/v1/users', { key: admin, body: memberBody(overrides) });
    expectError(res, 400, 'VALIDATION_ERROR', field);
  });

  it('on update, including fields that cannot be cleared', async () => {
    const user = await createUser(memberBody());
    const updates: [Body, string][] = [
      [{ email: null }, 'email'],
      [{ email: 'nope' }, 'email'],
      [{ role: null }, 'role'],
      [{ role: 'root' }, 'role'],
      [{ scopes: ['admin'] }, 'scopes'],
      [{ scopes: ['nope'] }, 'scopes.0'],
      [{ nickname: 'x' }, 'nickname'],
    ];
    for (const [body, field] of updates) {
      const res = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body });
      expectError(res, 400, 'VALIDATION_ERROR', field);
    }
    expect((await server.rest('GET', `/v1/users/${user.id}`, { key: admin })).body).toEqual(user);
  });

  it('refuses read-only fields in a create body, naming them (issue 23: never ignored)', async () => {
    const res = await server.rest('POST', '/v1/users', {
      key: admin,
      body: memberBody({ id: 'usr_mine', createdAt: '2000-01-01T00:00:00.000Z' }),
    });
    expectError(res, 400, 'VALIDATION_ERROR', 'id');
  });
});

describe('roles and scopes', () => {
  it('a member holds exactly its scopes, deduplicated; an empty list is allowed', async () => {
    const user = await createUser(memberBody({ scopes: ['hr:read', 'crm:read', 'hr:read'] }));
    expect(user.scopes).toEqual(['hr:read', 'crm:read']);
    const none = await createUser(memberBody({ scopes: [] }));
    expect(none.scopes).toEqual([]);
    const cleared = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { scopes: null } });
    expect(cleared.body.scopes).toEqual([]);
  });

  it('promoting a member makes its scopes ["admin"]; demoting an admin needs the member scopes', async () => {
    const user = await createUser(memberBody({ scopes: ['crm:read'] }));
    const promoted = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { role: 'admin' } });
    expect(promoted.body).toMatchObject({ role: 'admin', scopes: ['admin'] });

    expectError(
      await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { role: 'member' } }),
      400,
      'VALIDATION_ERROR',
      'scopes',
    );
    expectError(
      await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { scopes: ['crm:read'] } }),
      400,
      'VALIDATION_ERROR',
      'scopes',
    );
    const demoted = await server.rest('PUT', `/v1/users/${user.id}`, {
      key: admin,
      body: { role: 'member', scopes: ['finance:read'] },
    });
    expect(demoted.status, demoted.text).toBe(200);
    expect(demoted.body).toMatchObject({ role: 'member', scopes: ['finance:read'] });
  });

  it('nobody is given scopes its creator lacks, nor changed or deleted by a caller holding less', async () => {
    // Every transport needs `admin`; the rule guards the service for its other callers (dashboard, OAuth).
    const users = server.services.users;
    const crmCaller: Principal = {
      organizationId: org.id,
      scopes: new Set(['crm:read', 'crm:write']),
      credential: { type: 'api_key', id: 'key_test' },
    };
    await expect(users.create(crmCaller, memberBody({ scopes: ['crm:read', 'hr:read'] }))).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'scopes',
      message: expect.stringContaining('hr:read'),
    });
    await expect(users.create(crmCaller, memberBody({ role: 'admin', scopes: undefined }))).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'role',
    });
    const within = await users.create(crmCaller, memberBody({ scopes: ['crm:write'] }));
    expect(within.scopes).toEqual(['crm:write']);

    await expect(users.update(crmCaller, within.id, { scopes: ['finance:write'] })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'scopes',
    });
    await expect(users.update(crmCaller, within.id, { role: 'admin' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'role',
    });
    const wider = await createUser(memberBody({ scopes: ['crm:read', 'hr:write'] }));
    await expect(users.update(crmCaller, wider.id, { password: 'taken over!' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(users.delete(crmCaller, wider.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await verifyPassword(PASSWORD, await storedHash(wider.id))).toBe(true);
  });

  it('userScopes and grantableScopes bound what a signed-in user may grant', async () => {
    const member = await createUser(memberBody({ scopes: ['crm:read', 'hr:read'] }));
    const row = await server.prisma.user.findUniqueOrThrow({ where: { id: member.id } });
    expect([...userScopes(row)]).toEqual(['crm:read', 'hr:read']);
    expect(grantableScopes(row, ['crm:read', 'crm:write', 'admin'])).toEqual(['crm:read']);
    const root = await createUser({ email: uniqueEmail('root'), role: 'admin', password: PASSWORD });
    const adminRow = await server.prisma.user.findUniqueOrThrow({ where: { id: root.id } });
    expect(grantableScopes(adminRow, ['crm:write', 'admin'])).toEqual(['crm:write', 'admin']);
    // A role that is not admin never implies admin, whatever the stored list says.
    expect([...userScopes({ role: 'member', scopes: ['admin', 'crm:read', 'bogus'] })]).toEqual(['crm:read']);
  });
});

describe('the last admin', () => {
  it('cannot be demoted or deleted (409 saying why); once another admin exists, it can', async () => {
    const { key, adminId } = await freshOrg();
    const demote = await server.rest('PUT', `/v1/users/${adminId}`, {
      key,
      body: { role: 'member', scopes: ['crm:read'] },
    });
    expectError(demote, 409, 'CONFLICT', 'role');
    expect(demote.body.error.message).toMatch(/last admin/);
    const remove = await server.rest('DELETE', `/v1/users/${adminId}`, { key });
    expectError(remove, 409, 'CONFLICT');
    expect(remove.body.error.message).toMatch(/last admin/);
    const viaGraphQL = await server.gql(DELETE, { id: adminId }, { key });
    expect(onlyError(viaGraphQL).extensions?.code).toBe('CONFLICT');
    // Changing anything else of the last admin is fine.
    expect((await server.rest('PUT', `/v1/users/${adminId}`, { key, body: { name: 'Still admin' } })).status).toBe(200);

    const second = await createUser({ email: uniqueEmail('second'), role: 'admin', password: PASSWORD }, key);
    expect((await server.rest('DELETE', `/v1/users/${adminId}`, { key })).status).toBe(204);
    expectError(await server.rest('DELETE', `/v1/users/${second.id}`, { key }), 409, 'CONFLICT');
    const admins = await server.rest('GET', '/v1/users?role=admin', { key });
    expect(admins.body.data.map((u: Body) => u.id)).toEqual([second.id]);
  });

  it('two admins removed at once: exactly one goes, one admin remains', async () => {
    for (const removal of ['demote', 'delete'] as const) {
      const { key, adminId } = await freshOrg();
      const second = await createUser({ email: uniqueEmail('twin'), role: 'admin', password: PASSWORD }, key);
      const remove = (id: string) =>
        removal === 'delete'
          ? server.rest('DELETE', `/v1/users/${id}`, { key })
          : server.rest('PUT', `/v1/users/${id}`, { key, body: { role: 'member', scopes: [] } });
      const results = await Promise.all([remove(adminId), remove(second.id)]);
      expect(results.map((r) => r.status).sort(), removal).toEqual([removal === 'delete' ? 204 : 200, 409].sort());
      const admins = await server.rest('GET', '/v1/users?role=admin', { key });
      expect(admins.body.data, removal).toHaveLength(1);
    }
  });

  it('is counted per organization', async () => {
    const other = await freshOrg();
    await createUser({ email: uniqueEmail('elsewhere'), role: 'admin', password: PASSWORD });
    expectError(await server.rest('DELETE', `/v1/users/${other.adminId}`, { key: other.key }), 409, 'CONFLICT');
  });
});

describe('tenancy', () => {
  it("another organization's user is 404 for get, update and delete, and absent from lists", async () => {
    const mine = await createUser(memberBody({ name: 'Tenant A user' }));
    const other = await freshOrg();
    const key = other.key;
    expectError(await server.rest('GET', `/v1/users/${mine.id}`, { key }), 404, 'NOT_FOUND');
    expectError(
      await server.rest('PUT', `/v1/users/${mine.id}`, { key, body: { name: 'Stolen', password: 'hijacked!!' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await server.rest('DELETE', `/v1/users/${mine.id}`, { key }), 404, 'NOT_FOUND');
    for (const query of ['', `?q=${encodeURIComponent(mine.email)}`, '?role=member']) {
      const list = await server.rest('GET', `/v1/users${query}`, { key });
      expect(
        list.body.data.map((u: Body) => u.id),
        query,
      ).not.toContain(mine.id);
      expect(list.text).not.toContain(mine.email);
    }
    const viaGraphQL = await server.gql(UPDATE, { id: mine.id, input: { name: 'Stolen' } }, { key });
    expect(onlyError(viaGraphQL).extensions?.code).toBe('NOT_FOUND');
    expect(onlyError(await server.gql(GET, { id: mine.id }, { key })).extensions?.code).toBe('NOT_FOUND');

    expect((await server.rest('GET', `/v1/users/${mine.id}`, { key: admin })).body).toEqual(mine);
    expect(await verifyPassword(PASSWORD, await storedHash(mine.id))).toBe(true);
  });
});

describe('scopes', () => {
  it('a crm:read key gets 403 naming admin on every operation, REST and GraphQL', async () => {
    const readKey = await org.key(['crm:read']);
    const user = await createUser(memberBody());
    const requests: [string, string, Body?][] = [
      ['GET', '/v1/users'],
      ['POST', '/v1/users', memberBody()],
      ['GET', `/v1/users/${user.id}`],
      ['PUT', `/v1/users/${user.id}`, { name: 'x' }],
      ['DELETE', `/v1/users/${user.id}`],
    ];
    for (const [method, path, body] of requests) {
      const res = await server.rest(method, path, { key: readKey, body });
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message, `${method} ${path}`).toContain("'admin'");
    }
    for (const [query, variables] of [
      [LIST, {}],
      [GET, { id: user.id }],
      [CREATE, { input: inGraphQL(memberBody()) }],
      [UPDATE, { id: user.id, input: { name: 'x' } }],
      [DELETE, { id: user.id }],
    ] as const) {
      const error = onlyError(await server.gql(query, variables, { key: readKey }));
      expect(error.extensions?.code).toBe('FORBIDDEN');
      expect(error.message).toContain("'admin'");
    }
    expect((await server.rest('GET', `/v1/users/${user.id}`, { key: admin })).body).toEqual(user);
  });
});

describe('deleting a user who created API keys', () => {
  it('revokes the keys it made (401 at once); they stay listed, revoked and with no creator', async () => {
    const { org: own, key } = await freshOrg();
    const user = await createUser({ email: uniqueEmail('keymaker'), role: 'admin', password: PASSWORD }, key);
    const made = await server.services.apiKeys.create(operatorPrincipal(own.id, user.id), {
      name: 'made by a user',
      scopes: ['admin'],
    });
    // The server caches the key with its creator's id; it must not outlive the user.
    expect((await server.rest('GET', '/v1/users', { key: made.key })).status).toBe(200);

    expect((await server.rest('DELETE', `/v1/users/${user.id}`, { key })).status).toBe(204);
    const row = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.createdByUserId).toBeNull();
    expect(row.revokedAt).not.toBeNull();

    expectError(await server.rest('GET', '/v1/users', { key: made.key }), 401, 'UNAUTHORIZED');
    const listed = await server.rest('GET', `/v1/api-keys/${made.id}`, { key });
    expect(listed.body.revokedAt, listed.text).toBe(row.revokedAt!.toISOString());
    // A key an operator made (no creator), like the one that deleted the user, goes on.
    expect((await server.rest('GET', '/v1/users', { key })).status).toBe(200);
  });
});
