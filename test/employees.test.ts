// Employees over REST and GraphQL: the fields and their rules (a salary needs a
// currency, a manager of the same organization without cycles), the
// terminate/reinstate lifecycle with its events, action-only fields refused in
// a PUT body, and HR events shown only to credentials that can read HR.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let org: TestOrg;
let key: string;
let otherKey: string;

beforeAll(async () => {
  org = await server.org();
  // hr:payroll too: these tests read and set salaries (test/salary-privacy.test.ts covers a key without it).
  key = await org.key(['hr:read', 'hr:write', 'hr:payroll']);
  otherKey = await (await server.org()).key(['hr:read', 'hr:write']);
});

let counter = 0;

async function hire(body: Record<string, unknown> = {}, withKey = key) {
  const res = await server.rest('POST', '/v1/hr/employees', {
    key: withKey,
    body: { firstName: 'Grace', lastName: `Hopper ${++counter}`, email: `grace-${counter}@example.test`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A new department of the organization. */
async function department(name: string) {
  const res = await server.rest('POST', '/v1/hr/departments', { key, body: { name, code: `D-${++counter}` } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string };
}

const put = (id: string, body: unknown) => server.rest('PUT', `/v1/hr/employees/${id}`, { key, body });
const act = (id: string, action: string, body?: unknown) =>
  server.rest('POST', `/v1/hr/employees/${id}/${action}`, { key, body });
const get = async (id: string) => (await server.rest('GET', `/v1/hr/employees/${id}`, { key })).body;

interface EventBody {
  type: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

async function eventsOf(id: string, withKey = key): Promise<EventBody[]> {
  const res = await server.rest('GET', '/v1/events?limit=100', { key: withKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data.filter((event: EventBody) => event.data.object.id === id);
}

function expectRefused(res: TestResponse, status: number, code: string, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, field });
  if (message) expect(res.body.error.message).toMatch(message);
}

describe('POST /v1/hr/employees', () => {
  it('hires with the three required fields: active, the rest null, and employee.created with the record', async () => {
    const employee = await hire();
    expect(employee).toMatchObject({
      status: 'active',
      jobTitle: null,
      departmentId: null,
      department: null,
      managerId: null,
      salary: null,
      currency: null,
      endDate: null,
    });
    expect(employee.id).toMatch(/^emp_[0-9a-z]{26}$/);
    expect(await eventsOf(employee.id)).toEqual([
      expect.objectContaining({ type: 'employee.created', data: { object: employee } }),
    ]);
  });

  it('takes every field; the salary in minor units with its currency', async () => {
    const manager = await hire();
    const research = await department('Research');
    const employee = await hire({
      jobTitle: 'Engineer',
      departmentId: research.id,
      managerId: manager.id,
      startDate: '2024-02-29',
      salary: 12_000_000,
      currency: 'eur',
      phone: '+1 555 0100',
    });
    expect(employee).toMatchObject({
      departmentId: research.id,
      department: 'Research',
      managerId: manager.id,
      salary: 12_000_000,
      currency: 'EUR',
      startDate: '2024-02-29',
    });
  });

  it.each([
    ['currency', { salary: 100 }],
    ['email', { email: 'not an email' }],
    ['startDate', { startDate: '2026-02-30' }],
    ['salary', { salary: -1, currency: 'USD' }],
    ['status', { status: 'terminated' }],
    ['firstName', { firstName: '' }],
  ])('refuses a bad %s (%j), writing nothing', async (field, body) => {
    const before = (await server.rest('GET', '/v1/hr/employees?limit=1', { key })).body.pagination.total;
    const res = await server.rest('POST', '/v1/hr/employees', {
      key,
      body: { firstName: 'A', lastName: 'B', email: `bad-${++counter}@example.test`, ...body },
    });
    expectRefused(res, 400, 'VALIDATION_ERROR', field);
    expect((await server.rest('GET', '/v1/hr/employees?limit=1', { key })).body.pagination.total).toBe(before);
  });

  it('refuses a taken email with 409 naming it, and another organization’s manager with 400 naming managerId', async () => {
    const taken = await hire();
    const res = await server.rest('POST', '/v1/hr/employees', {
      key,
      body: { firstName: 'A', lastName: 'B', email: taken.email.toUpperCase() },
    });
    expectRefused(res, 409, 'CONFLICT', 'email');
    const foreign = await hire({}, otherKey);
    expectRefused(await put(taken.id, { managerId: foreign.id }), 400, 'VALIDATION_ERROR', 'managerId');
    const res2 = await server.rest('POST', '/v1/hr/employees', {
      key,
      body: { firstName: 'A', lastName: 'B', email: `x-${++counter}@example.test`, managerId: foreign.id },
    });
    expectRefused(res2, 400, 'VALIDATION_ERROR', 'managerId', /no employee with this id/);
  });
});

describe('managers', () => {
  it('refuses the employee itself and anyone who reports to them, however indirectly, and changes nothing', async () => {
    const top = await hire();
    const middle = await hire({ managerId: top.id });
    const bottom = await hire({ managerId: middle.id });
    for (const managerId of [top.id, middle.id, bottom.id]) {
      expectRefused(await put(top.id, { managerId }), 400, 'VALIDATION_ERROR', 'managerId', /reports to/);
    }
    expect(await get(top.id)).toEqual(top);
    expect((await eventsOf(top.id)).map((event) => event.type)).toEqual(['employee.created']);
    // A move that makes no cycle is fine.
    const peer = await hire();
    const moved = await put(bottom.id, { managerId: peer.id });
    expect(moved.status, moved.text).toBe(200);
  });

  it('are read through GraphQL as Employee.manager and Employee.reports (paged)', async () => {
    const boss = await hire();
    const a = await hire({ managerId: boss.id });
    const b = await hire({ managerId: boss.id });
    const res = await server.gql(
      `query ($id: ID!, $a: ID!) {
        employee(id: $id) { reports { data { id } } second: reports(page: 2, limit: 1) { data { id } pagination { total } } }
        a: employee(id: $a) { manager { id email } } }`,
      { id: boss.id, a: a.id },
      { key },
    );
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data).toEqual({
      employee: {
        reports: { data: [{ id: a.id }, { id: b.id }] },
        second: { data: [{ id: b.id }], pagination: { total: 2 } },
      },
      a: { manager: { id: boss.id, email: boss.email } },
    });
  });
});

describe('the lifecycle: active -> terminated -> active', () => {
  it('terminates with an endDate, raising employee.terminated with the previous values', async () => {
    const employee = await hire({ startDate: '2020-01-01' });
    const res = await act(employee.id, 'terminate', { endDate: '2026-06-30' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...employee,
      status: 'terminated',
      endDate: '2026-06-30',
      employments: [{ startDate: '2020-01-01', endDate: '2026-06-30' }],
      updatedAt: expect.any(String),
    });
    expect(await get(employee.id)).toEqual(res.body);
    const terminated = (await eventsOf(employee.id)).find((event) => event.type === 'employee.terminated');
    expect(terminated!.data).toEqual({
      object: res.body,
      previousAttributes: { status: 'active', endDate: null, updatedAt: employee.updatedAt },
    });
  });

  it('ends today (UTC) when no endDate is given, and never before the start', async () => {
    const employee = await hire();
    const res = await act(employee.id, 'terminate');
    expect(res.status, res.text).toBe(200);
    expect(res.body.endDate).toBe(new Date().toISOString().slice(0, 10));
    const late = await hire({ startDate: '2030-01-01' });
    expectRefused(await act(late.id, 'terminate', { endDate: '2029-12-31' }), 400, 'VALIDATION_ERROR', 'endDate');
    expect(await get(late.id)).toEqual(late);
  });

  it('refuses terminate when terminated and reinstate when active, with 409 naming the current state', async () => {
    const employee = await hire();
    expectRefused(
      await act(employee.id, 'reinstate'),
      409,
      'CONFLICT',
      'status',
      /^Employee is active; reinstate needs it to be terminated$/,
    );
    expect((await act(employee.id, 'terminate')).status).toBe(200);
    expectRefused(
      await act(employee.id, 'terminate'),
      409,
      'CONFLICT',
      'status',
      /^Employee is terminated; terminate needs it to be active$/,
    );
    const back = await act(employee.id, 'reinstate');
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ status: 'active', endDate: null });
    const types = (await eventsOf(employee.id)).map((event) => event.type);
    expect(types).toEqual(['employee.created', 'employee.terminated', 'employee.reinstated']);
  });

  it('refuses status and endDate in a PUT body, naming the action to use; the record sent back as read passes', async () => {
    const employee = await hire();
    const res = await put(employee.id, { status: 'terminated' });
    expectRefused(res, 400, 'VALIDATION_ERROR', 'status', /POST \/v1\/hr\/employees\/:id\/terminate/);
    expectRefused(await put(employee.id, { endDate: '2026-01-01' }), 400, 'VALIDATION_ERROR', 'endDate', /terminate/);
    expect(await get(employee.id)).toEqual(employee);
    const echoed = await put(employee.id, { ...employee, jobTitle: 'Admiral' });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body).toMatchObject({ status: 'active', jobTitle: 'Admiral' });
  });

  it('runs the actions as GraphQL mutations', async () => {
    const employee = await hire();
    const res = await server.gql(
      `mutation ($id: ID!) { terminateEmployee(id: $id, input: { endDate: "2026-07-01" }) { status endDate } }`,
      { id: employee.id },
      { key },
    );
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data).toEqual({ terminateEmployee: { status: 'TERMINATED'.toLowerCase(), endDate: '2026-07-01' } });
  });
});

describe('PUT /v1/hr/employees/:id', () => {
  it('raises employee.updated with the previous values of what changed, and nothing when nothing changes', async () => {
    const [research, sales] = [await department('Research'), await department('Sales')];
    const employee = await hire({ departmentId: research.id });
    const res = await put(employee.id, { departmentId: sales.id, jobTitle: 'Lead' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.department).toBe('Sales');
    const updated = (await eventsOf(employee.id)).filter((event) => event.type === 'employee.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data).toEqual({
      object: res.body,
      previousAttributes: { departmentId: research.id, jobTitle: null, updatedAt: employee.updatedAt },
    });
    expect((await put(employee.id, { departmentId: sales.id })).body).toEqual(res.body);
    expect((await eventsOf(employee.id)).filter((event) => event.type === 'employee.updated')).toHaveLength(1);
  });

  it('keeps a salary with its currency: clearing the currency of a salaried employee is 400', async () => {
    const employee = await hire({ salary: 5_000_000, currency: 'USD' });
    expectRefused(await put(employee.id, { currency: null }), 400, 'VALIDATION_ERROR', 'currency');
    expect(await get(employee.id)).toEqual(employee);
  });
});

describe('who sees HR', () => {
  it('shows HR events only to credentials that can read HR, and HR webhooks need hr:read', async () => {
    const employee = await hire();
    const crmOnly = await org.key(['crm:read', 'crm:write']);
    expect(await eventsOf(employee.id, crmOnly)).toEqual([]);
    expect(await eventsOf(employee.id)).toHaveLength(1);
    expect((await server.rest('GET', '/v1/hr/employees', { key: crmOnly })).status).toBe(403);
  });

  it("answers 404 for another organization's employee on get, update and the actions, and lists none of it", async () => {
    const employee = await hire();
    for (const res of [
      await server.rest('GET', `/v1/hr/employees/${employee.id}`, { key: otherKey }),
      await server.rest('PUT', `/v1/hr/employees/${employee.id}`, { key: otherKey, body: { jobTitle: 'x' } }),
      await server.rest('POST', `/v1/hr/employees/${employee.id}/terminate`, { key: otherKey }),
    ]) {
      expect(res.status, res.text).toBe(404);
    }
    const listed = await server.rest('GET', `/v1/hr/employees?q=${encodeURIComponent(employee.email)}`, {
      key: otherKey,
    });
    expect(listed.body.data).toEqual([]);
  });

  it('filters by status, department, managerId and q', async () => {
    const filters = await department('Filters');
    const boss = await hire({ departmentId: filters.id });
    const report = await hire({ departmentId: filters.id, managerId: boss.id, jobTitle: 'Unique title zebra' });
    await act(report.id, 'terminate');
    const ids = async (query: string) =>
      (await server.rest('GET', `/v1/hr/employees?limit=100&${query}`, { key })).body.data.map(
        (e: { id: string }) => e.id,
      );
    expect(await ids('department=FILTERS')).toEqual([boss.id, report.id]);
    expect(await ids('department=filters&status=terminated')).toEqual([report.id]);
    expect(await ids(`departmentId=${filters.id}`)).toEqual([boss.id, report.id]);
    expect(await ids(`managerId=${boss.id}`)).toEqual([report.id]);
    expect(await ids('q=title%20zebra')).toEqual([report.id]);
  });
});
