// Who decides (issue 25): a user may be an employee (`employeeId`, one user per
// employee); approving or rejecting a leave request or an expense records
// `decidedBy`, the actor its event names; and nobody decides on their own: the
// user a credential acts for (an API key's creator, an OAuth token's user) being
// the request's employee is 403, over REST and GraphQL alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/auth/principal.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';
import { createApp, createUser, obtainTokens, type TestUser } from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

type Body = Record<string, unknown> & { id: string };

let org: TestOrg;
let admin: string;
/** Ada, an employee who is also a user of the organization (an HR officer). */
let ada: Body;
let adaUser: TestUser;
/** A key Ada made: it acts for her. */
let adaKey: string;
/** Bob, her manager, deciding through an OAuth app as himself. */
let bob: Body;
let bobUser: TestUser;
let bobToken: string;
let counter = 0;

const SCOPES = ['hr:read', 'hr:write', 'finance:read', 'finance:write'] as const;

async function hire(key = admin): Promise<Body> {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/employees', {
    key,
    body: { firstName: 'E', lastName: `${n}`, email: `decider-${n}@example.test` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function link(user: TestUser, employeeId: string | null) {
  const res = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { employeeId } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

beforeAll(async () => {
  org = await server.org();
  admin = await org.key(['admin']);
  [ada, bob] = [await hire(), await hire()];
  adaUser = await createUser(server, org.id, { role: 'member', scopes: [...SCOPES] });
  bobUser = await createUser(server, org.id, { role: 'member', scopes: [...SCOPES] });
  expect(await link(adaUser, ada.id)).toMatchObject({ id: adaUser.id, employeeId: ada.id });
  await link(bobUser, bob.id);
  // As the operator CLI makes a key for a user: the key acts for Ada.
  const made = await server.services.apiKeys.create(operatorPrincipal(org.id, adaUser.id), {
    name: 'Ada',
    scopes: [...SCOPES],
  });
  adaKey = made.key;
  const app = await createApp(server, org.id, { scopes: [...SCOPES] });
  bobToken = (await obtainTokens(server, app, bobUser, { scope: SCOPES.join(' ') })).access_token;
});

/** The n-th working day (Monday to Friday) from Tuesday 1 September 2026: each request a day of its own. */
function workingDay(n: number): string {
  const date = new Date(Date.UTC(2026, 8, 1));
  for (let left = n; ; date.setUTCDate(date.getUTCDate() + 1)) {
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6 && --left < 0) return date.toISOString().slice(0, 10);
  }
}

async function leave(employee: Body): Promise<Body> {
  const day = workingDay(++counter);
  const res = await server.rest('POST', '/v1/hr/leave-requests', {
    key: admin,
    body: { employeeId: employee.id, type: 'vacation', from: day, to: day },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function submittedExpense(employee: Body): Promise<Body> {
  const created = await server.rest('POST', '/v1/finance/expenses', {
    key: admin,
    body: { employeeId: employee.id, amount: 4200, currency: 'EUR', category: 'travel', incurredOn: '2026-03-02' },
  });
  expect(created.status, created.text).toBe(201);
  const submitted = await server.rest('POST', `/v1/finance/expenses/${created.body.id}/submit`, { key: admin });
  expect(submitted.status, submitted.text).toBe(200);
  return submitted.body;
}

async function latestEvent(id: string) {
  const res = await server.rest('GET', `/v1/events?objectId=${id}&limit=100`, { key: admin });
  return res.body.data.at(-1) as { type: string; actor: { type: string; id: string | null } };
}

function expectOwnDecisionRefused(res: TestResponse) {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', field: 'employeeId' });
  expect(res.body.error.message).toMatch(/Nobody decides on their own/);
}

describe('leave requests', () => {
  it('refuses Ada approving or rejecting her own request (403), with her key or through an app, changing nothing', async () => {
    const own = await leave(ada);
    for (const action of ['approve', 'reject']) {
      expectOwnDecisionRefused(
        await server.rest('POST', `/v1/hr/leave-requests/${own.id}/${action}`, { key: adaKey, body: {} }),
      );
    }
    const adaApp = await createApp(server, org.id, { scopes: [...SCOPES] });
    const adaToken = (await obtainTokens(server, adaApp, adaUser, { scope: 'hr:read hr:write' })).access_token;
    expectOwnDecisionRefused(
      await server.rest('POST', `/v1/hr/leave-requests/${own.id}/approve`, { key: adaToken, body: {} }),
    );
    const after = await server.rest('GET', `/v1/hr/leave-requests/${own.id}`, { key: admin });
    expect(after.body).toEqual(own);
    expect((await latestEvent(own.id)).type).toBe('leave.requested');
    // GraphQL says the same.
    const gql = await server.gql(
      `mutation ($id: ID!) { approveLeaveRequest(id: $id) { id } }`,
      { id: own.id },
      { key: adaKey },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'employeeId' });
  });

  it("records who decided: Bob (a user, through the app) approves Ada's request, Ada's key rejects Bob's", async () => {
    const adas = await leave(ada);
    const approved = await server.rest('POST', `/v1/hr/leave-requests/${adas.id}/approve`, {
      key: bobToken,
      body: {},
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: { type: 'user', id: bobUser.id } });
    const event = await latestEvent(adas.id);
    expect(event.type).toBe('leave.approved');
    expect(event.actor).toEqual(approved.body.decidedBy);

    const bobs = await leave(bob);
    const rejected = await server.rest('POST', `/v1/hr/leave-requests/${bobs.id}/reject`, {
      key: adaKey,
      body: { reason: 'Peak season' },
    });
    expect(rejected.status, rejected.text).toBe(200);
    // A key acts as itself (the event's actor), though it is Ada's own decision that is checked.
    expect(rejected.body.decidedBy).toEqual({ type: 'api_key', id: expect.stringMatching(/^key_/) });
    expect((await latestEvent(bobs.id)).actor).toEqual(rejected.body.decidedBy);

    const gql = await server.gql(
      `query ($id: ID!) { leaveRequest(id: $id) { decidedBy { type id } } }`,
      { id: adas.id },
      { key: admin },
    );
    expect(gql.data.leaveRequest.decidedBy).toEqual({ type: 'user', id: bobUser.id });
    // decidedBy is set by the decisions only: a PUT giving it is a 400 naming the action.
    const put = await server.rest('PUT', `/v1/hr/leave-requests/${(await leave(bob)).id}`, {
      key: admin,
      body: { decidedBy: { type: 'user', id: bobUser.id } },
    });
    expect(put.status, put.text).toBe(400);
    expect(put.body.error.field).toBe('decidedBy');
  });

  it('lets an admin key made by the operator (acting for nobody) decide on anyone’s', async () => {
    const adas = await leave(ada);
    const res = await server.rest('POST', `/v1/hr/leave-requests/${adas.id}/approve`, { key: admin, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body.decidedBy).toEqual((await latestEvent(adas.id)).actor);
  });
});

describe('expenses', () => {
  it('refuses Ada deciding on her own expense (403); Bob approves it, and the decision says so', async () => {
    const own = await submittedExpense(ada);
    for (const action of ['approve', 'reject']) {
      expectOwnDecisionRefused(
        await server.rest('POST', `/v1/finance/expenses/${own.id}/${action}`, { key: adaKey, body: {} }),
      );
    }
    expect((await server.rest('GET', `/v1/finance/expenses/${own.id}`, { key: admin })).body).toEqual(own);
    const approved = await server.rest('POST', `/v1/finance/expenses/${own.id}/approve`, { key: bobToken, body: {} });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: { type: 'user', id: bobUser.id } });
    expect((await latestEvent(own.id)).actor).toEqual({ type: 'user', id: bobUser.id });

    const bobs = await submittedExpense(bob);
    const rejected = await server.rest('POST', `/v1/finance/expenses/${bobs.id}/reject`, {
      key: adaKey,
      body: { reason: 'No receipt' },
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'No receipt' });
    expect(rejected.body.decidedBy).toEqual((await latestEvent(bobs.id)).actor);
  });
});

describe('users linked to employees', () => {
  it('takes an employee of the organization, one user each (409 naming employeeId); null unlinks', async () => {
    const carol = await hire();
    const user = await createUser(server, org.id, { role: 'member', scopes: ['hr:read'] });
    const taken = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { employeeId: ada.id } });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFLICT', field: 'employeeId' });

    const foreignEmployee = await hire(await (await server.org()).key(['admin']));
    for (const employeeId of [foreignEmployee.id, 'emp_00000000000000000000000000', 'not-an-id']) {
      const res = await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { employeeId } });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'employeeId' });
    }
    const created = await server.rest('POST', '/v1/users', {
      key: admin,
      body: {
        email: `carol-${++counter}@example.test`,
        role: 'member',
        scopes: ['hr:read'],
        password: 'correct horse battery',
        employeeId: carol.id,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.employeeId).toBe(carol.id);
    const unlinked = await server.rest('PUT', `/v1/users/${created.body.id}`, {
      key: admin,
      body: { employeeId: null },
    });
    expect(unlinked.body.employeeId).toBeNull();
    expect(
      (await server.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { employeeId: carol.id } })).status,
    ).toBe(200);
  });

  it('once Ada is no longer linked to her employee record, her key may decide on it', async () => {
    const own = await leave(ada);
    await link(adaUser, null);
    try {
      const res = await server.rest('POST', `/v1/hr/leave-requests/${own.id}/approve`, { key: adaKey, body: {} });
      expect(res.status, res.text).toBe(200);
    } finally {
      await link(adaUser, ada.id);
    }
  });
});
