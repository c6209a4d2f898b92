// Nothing accepted and ignored (issue 23): a query parameter a list does not
// take is a 400 naming it, and the filters users expect exist (attendance
// open/closed, leave type, expense category, deal currency, a record's events)
// over REST and GraphQL, documented in OpenAPI; a read-only, create-only or
// action-only field sent with another value than the record's is a 400 naming
// it (a record sent back as read still passes); an action's body is its input
// only; and a record is edited only in the states its lifecycle allows.
import { beforeAll, describe, expect, it } from 'vitest';
import { eventConditions } from '../src/graphql/system/event/service.js';
import { useServer, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let admin: string;
let other: string;

beforeAll(async () => {
  admin = await (await server.org()).key(['admin']);
  other = await (await server.org()).key(['admin']);
});

let counter = 0;
const unique = () => `${Date.now()}-${++counter}`;

function expectError(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, ...(field && { field }) });
}

async function created(path: string, body: Record<string, unknown>, key = admin) {
  const res = await server.rest('POST', `/v1${path}`, { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const employee = (key = admin) =>
  created('/hr/employees', { firstName: 'Ada', lastName: 'Exact', email: `exact-${unique()}@example.test` }, key);
const contact = (key = admin) => created('/crm/contacts', { email: `exact-${unique()}@example.test` }, key);
const list = async (path: string, key = admin) => {
  const res = await server.rest('GET', `/v1${path}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string }[];
};
const ids = (records: { id: string }[]) => records.map((record) => record.id).sort();

interface Operation {
  parameters?: { name: string; in: string; description?: string }[];
}

async function openApi(): Promise<{ paths: Record<string, Record<string, Operation>> }> {
  return (await server.rest('GET', '/v1/openapi.json')).body;
}

/** Every list the document lists: GET operations with query parameters (page among them). */
async function listOperations(): Promise<[string, Operation][]> {
  const { paths } = await openApi();
  return Object.entries(paths)
    .filter(([, operations]) => operations.get?.parameters?.some((p) => p.in === 'query' && p.name === 'page'))
    .map(([path, operations]) => [path, operations.get!]);
}

describe('unknown query parameters', () => {
  it('are a 400 VALIDATION_ERROR naming the parameter, on every list (declared and system)', async () => {
    const lists = await listOperations();
    const paths = lists.map(([path]) => path);
    // The system lists are there too, deliveries and exports included.
    for (const path of ['/events', '/api-keys', '/users', '/webhooks', '/oauth-apps', '/exports', '/crm/deals']) {
      expect(paths).toContain(path);
    }
    expect(paths).toContain('/webhooks/{id}/deliveries');
    for (const [path] of lists) {
      const concrete = path.replace('{id}', 'whk_00000000000000000000000000');
      const res = await server.rest('GET', `/v1${concrete}?page=1&notAParameter=1`, { key: admin });
      expectError(res, 400, 'VALIDATION_ERROR', 'notAParameter');
      expect(res.body.error.message).toContain("Unknown query parameter 'notAParameter'");
    }
  });

  it('names what the list takes: /finance/invoices?overdue=true', async () => {
    const res = await server.rest('GET', '/v1/finance/invoices?overdue=true', { key: admin });
    expectError(res, 400, 'VALIDATION_ERROR', 'overdue');
    expect(res.body.error.message).toMatch(/this list takes page, limit, sort, status, .*q/);
  });

  it('are refused repeated too, and a known one still filters', async () => {
    expectError(await server.rest('GET', '/v1/crm/contacts?_=1&_=2', { key: admin }), 400, 'VALIDATION_ERROR', '_');
    expect((await server.rest('GET', '/v1/crm/contacts?limit=1', { key: admin })).status).toBe(200);
  });
});

describe('the filters users expect', () => {
  it('attendance: status=open (no clockOut yet) or closed, over REST and GraphQL', async () => {
    const [a, b] = [await employee(), await employee()];
    const open = await created('/hr/attendance', { employeeId: a.id, clockIn: '2026-03-02T08:00:00Z' });
    const closing = await created('/hr/attendance', { employeeId: b.id, clockIn: '2026-03-02T08:00:00Z' });
    const closed = await server.rest('POST', `/v1/hr/attendance/${closing.id}/clock-out`, {
      key: admin,
      body: { clockOut: '2026-03-02T09:00:00Z' },
    });
    expect(closed.status, closed.text).toBe(200);
    expect(ids(await list('/hr/attendance?status=open'))).toEqual([open.id]);
    expect(ids(await list('/hr/attendance?status=closed'))).toEqual([closing.id]);
    expectError(
      await server.rest('GET', '/v1/hr/attendance?status=late', { key: admin }),
      400,
      'VALIDATION_ERROR',
      'status',
    );
    const gql = await server.gql(
      '{ attendance(status: open) { data { id clockOut } pagination { total } } }',
      {},
      {
        key: admin,
      },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.attendance).toEqual({ data: [{ id: open.id, clockOut: null }], pagination: { total: 1 } });
  });

  it('leave requests: type', async () => {
    const person = await employee();
    const body = { employeeId: person.id, from: '2026-05-04', to: '2026-05-05' };
    const sick = await created('/hr/leave-requests', { ...body, type: 'sick' });
    await created('/hr/leave-requests', { ...body, type: 'vacation' });
    expect(ids(await list(`/hr/leave-requests?type=sick&employeeId=${person.id}`))).toEqual([sick.id]);
    const gql = await server.gql(
      'query ($id: ID) { leaveRequests(type: sick, employeeId: $id) { data { id type } } }',
      { id: person.id },
      { key: admin },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.leaveRequests.data).toEqual([{ id: sick.id, type: 'sick' }]);
  });

  it('expenses: category', async () => {
    const person = await employee();
    const body = { employeeId: person.id, amount: 100, currency: 'EUR', incurredOn: '2026-03-14' };
    const travel = await created('/finance/expenses', { ...body, category: 'travel' });
    await created('/finance/expenses', { ...body, category: 'meals' });
    expect(ids(await list(`/finance/expenses?category=travel&employeeId=${person.id}`))).toEqual([travel.id]);
    const gql = await server.gql(
      'query ($id: ID) { expenses(category: travel, employeeId: $id) { data { id } } }',
      { id: person.id },
      { key: admin },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.expenses.data).toEqual([{ id: travel.id }]);
  });

  it('deals: currency, in any case', async () => {
    const key = await (await server.org()).key(['admin']);
    const usd = await created('/crm/deals', { title: 'Dollars', currency: 'USD' }, key);
    await created('/crm/deals', { title: 'Euros', currency: 'EUR' }, key);
    expect(ids(await list('/crm/deals?currency=usd', key))).toEqual([usd.id]);
    expectError(await server.rest('GET', '/v1/crm/deals?currency=XXY', { key }), 400, 'VALIDATION_ERROR', 'currency');
    const gql = await server.gql('{ deals(currency: "usd") { data { id } } }', {}, { key });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.deals.data).toEqual([{ id: usd.id }]);
  });

  it("events: objectId gives a record's history, oldest first, within the organization", async () => {
    const record = await contact();
    await contact();
    const update = await server.rest('PUT', `/v1/crm/contacts/${record.id}`, { key: admin, body: { company: 'X' } });
    expect(update.status, update.text).toBe(200);
    const history = await list(`/events?objectId=${record.id}`);
    expect(history.map((event) => (event as unknown as { type: string }).type)).toEqual([
      'contact.created',
      'contact.updated',
    ]);
    expect(await list(`/events?objectId=${record.id}`, other)).toEqual([]);
    expect(await list(`/events?objectId=${record.id}&type=contact.updated`)).toEqual([history[1]]);
    const gql = await server.gql(
      'query ($id: ID) { events(objectId: $id) { data { id type } } }',
      { id: record.id },
      {
        key: admin,
      },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.events.data.map((event: { id: string }) => event.id)).toEqual(history.map((event) => event.id));
  });

  it("events: objectId reads the expression index, not the organization's events", async () => {
    const where = eventConditions('org_x', ['contact.created'], { objectId: 'con_x' });
    const plan = await server.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('set local enable_seqscan = off');
      await tx.$executeRawUnsafe('set local enable_bitmapscan = off');
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `explain select * from "Event" where ${where.sql} order by "createdAt", id limit 50`,
        ...where.params,
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('Event_organizationId_objectId_createdAt_id_idx');
  });

  it('exports of events take objectId too', async () => {
    const record = await contact();
    const res = await server.rest('POST', '/v1/exports', {
      key: admin,
      body: { resource: 'events', format: 'json', filters: { objectId: record.id } },
    });
    expect(res.status, res.text).toBe(202);
    const refused = await server.rest('POST', '/v1/exports', {
      key: admin,
      body: { resource: 'events', format: 'json', filters: { objectID: record.id } },
    });
    expectError(refused, 400, 'VALIDATION_ERROR', 'filters.objectID');
  });

  it('OpenAPI: every list documents each of its parameters, with a description', async () => {
    const lists = await listOperations();
    expect(lists.length).toBeGreaterThanOrEqual(16);
    for (const [path, operation] of lists) {
      for (const parameter of operation.parameters!.filter((p) => p.in === 'query')) {
        expect(parameter.description, `${path} ${parameter.name}`).toMatch(/\w/);
      }
    }
    const names = (path: string) =>
      lists.find(([listed]) => listed === path)![1].parameters!.map((parameter) => parameter.name);
    expect(names('/hr/attendance')).toContain('status');
    expect(names('/hr/leave-requests')).toContain('type');
    expect(names('/finance/expenses')).toContain('category');
    expect(names('/crm/deals')).toContain('currency');
    expect(names('/events')).toEqual(expect.arrayContaining(['page', 'limit', 'type', 'since', 'objectId']));
  });
});
