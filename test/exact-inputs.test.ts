// Nothing accepted and ignored (issue 23): a query parameter a list does not
// take is a 400 naming it, and the filters users expect exist (attendance
// open/closed, leave type, expense category, deal currency, a record's events)
// over REST and GraphQL, documented in OpenAPI; a read-only, create-only or
// action-only field sent with another value than the record's is a 400 naming
// it (a record sent back as read still passes); an action's body is its input
// only; and a record is edited only in the states its lifecycle allows.
import { beforeAll, describe, expect, it } from 'vitest';
import { eventConditions } from '../src/graphql/system/event/list.js';
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

  // ?overdue=true was this example until invoices took it (issue 26: test/terms-overdue-aging.test.ts).
  it('names what the list takes: /finance/invoices?late=true', async () => {
    const res = await server.rest('GET', '/v1/finance/invoices?late=true', { key: admin });
    expectError(res, 400, 'VALIDATION_ERROR', 'late');
    expect(res.body.error.message).toMatch(/this list takes page, limit, after, sort, status, .*overdue, q/);
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

const put = (path: string, body: unknown, key = admin) => server.rest('PUT', `/v1${path}`, { key, body });
const get = async (path: string, key = admin) => {
  const res = await server.rest('GET', `/v1${path}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function invoice() {
  const { id: contactId } = await contact();
  return created('/finance/invoices', {
    contactId,
    currency: 'EUR',
    lines: [{ description: 'Work', quantity: 2, unitAmount: 50 }],
  });
}

describe('fields that cannot change: a record read and sent back passes, another value is a 400 naming the field', () => {
  it('a payroll run: the period is fixed when it is created', async () => {
    const run = await created('/hr/payroll-runs', { periodStart: '2026-05-01', periodEnd: '2026-05-31' });
    const res = await put(`/hr/payroll-runs/${run.id}`, { periodEnd: '2026-05-15' });
    expectError(res, 400, 'VALIDATION_ERROR', 'periodEnd');
    expect(res.body.error.message).toContain('fixed when the record is created');
    expect(await get(`/hr/payroll-runs/${run.id}`)).toEqual(run);
    const same = await put(`/hr/payroll-runs/${run.id}`, { periodEnd: run.periodEnd, payDate: '2026-06-01' });
    expect(same.status, same.text).toBe(200);
    expect(same.body.payDate).toBe('2026-06-01');
  });

  it("a leave request's employeeId", async () => {
    const [person, another] = [await employee(), await employee()];
    const request = await created('/hr/leave-requests', {
      employeeId: person.id,
      type: 'vacation',
      from: '2026-07-01',
      to: '2026-07-03',
    });
    const res = await put(`/hr/leave-requests/${request.id}`, { employeeId: another.id });
    expectError(res, 400, 'VALIDATION_ERROR', 'employeeId');
    expect(await get(`/hr/leave-requests/${request.id}`)).toEqual(request);
    const same = await put(`/hr/leave-requests/${request.id}`, { employeeId: person.id, reason: 'Summer' });
    expect(same.status, same.text).toBe(200);
    expect(same.body.reason).toBe('Summer');
  });

  it('id, createdAt, a stale updatedAt and computed fields, each named', async () => {
    const draft = await invoice();
    const path = `/finance/invoices/${draft.id}`;
    const cases: [string, unknown][] = [
      ['id', 'inv_00000000000000000000000000'],
      ['createdAt', '2000-01-01T00:00:00.000Z'],
      ['updatedAt', '2000-01-01T00:00:00.000Z'],
      ['total', 5],
      ['amountDue', null],
      ['status', 'open'],
    ];
    for (const [field, value] of cases) {
      const res = await put(path, { ...draft, notes: 'changed', [field]: value });
      expectError(res, 400, 'VALIDATION_ERROR', field);
    }
    expect(await get(path)).toEqual(draft);
  });

  it('a record sent back as read passes, timestamps written otherwise and objects with keys reordered too', async () => {
    const key = await (await server.org()).key(['admin']);
    const salaried = { firstName: 'Paid', lastName: 'Person', email: `paid-${unique()}@example.test` };
    await created('/hr/employees', { ...salaried, salary: 1_200_000, currency: 'EUR' }, key);
    const run = await created('/hr/payroll-runs', { periodStart: '2026-08-01', periodEnd: '2026-08-31' }, key);
    expect(run.items).toHaveLength(1);
    const reordered = {
      ...Object.fromEntries(Object.entries(run).reverse()),
      createdAt: run.createdAt.replace('Z', '+00:00'),
      items: run.items.map((item: object) => Object.fromEntries(Object.entries(item).reverse())),
    };
    const res = await put(`/hr/payroll-runs/${run.id}`, reordered, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(run);
  });

  it.each([
    ['/crm/contacts', () => contact()],
    ['/crm/deals', () => created('/crm/deals', { title: 'Round trip', currency: 'USD', stage: 'qualified' })],
    ['/hr/employees', () => employee()],
    ['/finance/invoices', () => invoice()],
    [
      '/hr/attendance',
      async () => created('/hr/attendance', { employeeId: (await employee()).id, clockIn: '2026-03-02T08:00:00Z' }),
    ],
    [
      '/finance/expenses',
      async () =>
        created('/finance/expenses', {
          employeeId: (await employee()).id,
          amount: 100,
          currency: 'EUR',
          category: 'meals',
          incurredOn: '2026-03-14',
        }),
    ],
  ])('%s: a record read and sent back is accepted as it was', async (path, make) => {
    const record = await make();
    const res = await put(`${path}/${record.id}`, await get(`${path}/${record.id}`));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(record);
  });

  it("a create takes no read-only field, but a new record's own values", async () => {
    const refused = await server.rest('POST', '/v1/crm/contacts', {
      key: admin,
      body: { email: `exact-${unique()}@example.test`, id: 'con_00000000000000000000000000' },
    });
    expectError(refused, 400, 'VALIDATION_ERROR', 'id');
    expect(refused.body.error.message).toContain('a create does not take it');
    const person = await employee();
    const clockedOut = await server.rest('POST', '/v1/hr/attendance', {
      key: admin,
      body: { employeeId: person.id, clockOut: '2026-03-02T08:30:00Z' },
    });
    expectError(clockedOut, 400, 'VALIDATION_ERROR', 'clockOut');
    const { id: contactId } = await contact();
    const body = { contactId, currency: 'EUR', lines: [{ description: 'x', quantity: 1, unitAmount: 1 }] };
    const open = await server.rest('POST', '/v1/finance/invoices', { key: admin, body: { ...body, status: 'open' } });
    expectError(open, 400, 'VALIDATION_ERROR', 'status');
    expect(open.body.error.message).toContain('/open');
    await created('/finance/invoices', { ...body, status: 'draft', amountPaid: null });
  });

  it("an invoice line's amount: the computed one passes, another is refused (REST and GraphQL)", async () => {
    const draft = await invoice();
    const lines = [{ description: 'Work', quantity: 2, unitAmount: 50, amount: 99 }];
    expectError(await put(`/finance/invoices/${draft.id}`, { lines }), 400, 'VALIDATION_ERROR', 'lines.0.amount');
    const sent = await put(`/finance/invoices/${draft.id}`, { lines: [{ ...lines[0], amount: 100 }] });
    expect(sent.status, sent.text).toBe(200);
    const gql = await server.gql(
      'mutation ($id: ID!, $input: UpdateInvoiceInput!) { updateInvoice(id: $id, input: $input) { total } }',
      { id: draft.id, input: { lines } },
      { key: admin },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'lines.0.amount' });
  });

  it("system resources' PUT: users, webhooks and OAuth apps", async () => {
    const user = await created('/users', {
      email: `exact-${unique()}@example.test`,
      name: 'Member',
      role: 'member',
      scopes: ['crm:read'],
      password: 'a long enough password',
    });
    expectError(
      await put(`/users/${user.id}`, { createdAt: '2000-01-01T00:00:00Z' }),
      400,
      'VALIDATION_ERROR',
      'createdAt',
    );
    const userBack = await put(`/users/${user.id}`, { ...(await get(`/users/${user.id}`)), name: 'Renamed' });
    expect(userBack.status, userBack.text).toBe(200);

    const { secret: _secret, ...hook } = await created('/webhooks', {
      url: 'http://127.0.0.1:9/x',
      events: ['contact.created'],
    });
    expectError(
      await put(`/webhooks/${hook.id}`, { consecutiveFailures: 7 }),
      400,
      'VALIDATION_ERROR',
      'consecutiveFailures',
    );
    const hookBack = await put(`/webhooks/${hook.id}`, { ...(await get(`/webhooks/${hook.id}`)), description: 'Mine' });
    expect(hookBack.status, hookBack.text).toBe(200);

    const app = await created('/oauth-apps', {
      name: 'Exact',
      redirectUris: ['https://exact.example.test/cb'],
      scopes: ['crm:read'],
    });
    const { clientSecret: _clientSecret, ...appRecord } = app;
    expectError(await put(`/oauth-apps/${app.id}`, { clientId: 'bpc_other' }), 400, 'VALIDATION_ERROR', 'clientId');
    const appBack = await put(`/oauth-apps/${app.id}`, { ...(await get(`/oauth-apps/${app.id}`)), name: 'Renamed' });
    expect(appBack.status, appBack.text).toBe(200);
    expect(appBack.body).toMatchObject({ ...appRecord, name: 'Renamed', updatedAt: expect.any(String) });
  });

  it('GraphQL inputs are typed: a field the input does not have is refused by GraphQL itself', async () => {
    const res = await server.gql(
      'mutation { updatePayrollRun(id: "prun_00000000000000000000000000", input: { periodEnd: "2026-01-01" }) { id } }',
      {},
      { key: admin },
    );
    expect(res.errors?.[0]?.message).toMatch(/periodEnd/);
  });
});

describe("an action's body is that action's input only", () => {
  it('POST /finance/invoices/:id/open {"total": 5} is a 400 naming total; {} and no body pass', async () => {
    const [first, second] = [await invoice(), await invoice()];
    const res = await server.rest('POST', `/v1/finance/invoices/${first.id}/open`, { key: admin, body: { total: 5 } });
    expectError(res, 400, 'VALIDATION_ERROR', 'total');
    expect((await get(`/finance/invoices/${first.id}`)).status).toBe('draft');
    // The record's own values are no exception: an action takes no record.
    const sentBack = await server.rest('POST', `/v1/finance/invoices/${first.id}/open`, { key: admin, body: first });
    expectError(sentBack, 400, 'VALIDATION_ERROR');
    const empty = await server.rest('POST', `/v1/finance/invoices/${first.id}/open`, { key: admin, body: {} });
    expect(empty.status, empty.text).toBe(200);
    const none = await server.rest('POST', `/v1/finance/invoices/${second.id}/open`, { key: admin });
    expect(none.status, none.text).toBe(200);
  });

  it('an action with an input takes its fields alone', async () => {
    const person = await employee();
    const path = `/v1/hr/employees/${person.id}/terminate`;
    const res = await server.rest('POST', path, { key: admin, body: { endDate: '2026-12-31', status: 'terminated' } });
    expectError(res, 400, 'VALIDATION_ERROR', 'status');
    const ok = await server.rest('POST', path, { key: admin, body: { endDate: '2026-12-31' } });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a system action too: rotating an API key takes expiresAt alone', async () => {
    const keys = await list('/api-keys');
    const res = await server.rest('POST', `/v1/api-keys/${keys[0]!.id}/rotate`, { key: admin, body: { name: 'x' } });
    expectError(res, 400, 'VALIDATION_ERROR', 'name');
  });
});

describe('closed records', () => {
  it.each(['won', 'lost'])('a %s deal is not edited: 409 naming its stage, field stage', async (stage) => {
    const deal = await created('/crm/deals', { title: 'Closing', currency: 'USD', amount: 1000 });
    const closed = await put(`/crm/deals/${deal.id}`, { stage });
    expect(closed.status, closed.text).toBe(200);
    for (const body of [{ amount: 1 }, { title: 'Rewritten' }, { stage: 'lead' }]) {
      const res = await put(`/crm/deals/${deal.id}`, body);
      expectError(res, 409, 'CONFLICT', 'stage');
      expect(res.body.error.message).toContain(`Deal is ${stage}`);
    }
    expect(await get(`/crm/deals/${deal.id}`)).toEqual(closed.body);
    const gql = await server.gql(
      'mutation ($id: ID!) { updateDeal(id: $id, input: { amount: 2 }) { id } }',
      { id: deal.id },
      { key: admin },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', field: 'stage' });
  });

  it('an open deal is still edited, and closing it in the same PUT is allowed', async () => {
    const deal = await created('/crm/deals', { title: 'Open', currency: 'USD' });
    const res = await put(`/crm/deals/${deal.id}`, { amount: 500, stage: 'won' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ amount: 500, stage: 'won', closedAt: expect.any(String) });
  });

  it('a closed attendance record and a terminated employee are still corrected', async () => {
    const person = await employee();
    const record = await created('/hr/attendance', { employeeId: person.id, clockIn: '2026-04-01T08:00:00Z' });
    const out = await server.rest('POST', `/v1/hr/attendance/${record.id}/clock-out`, {
      key: admin,
      body: { clockOut: '2026-04-01T12:00:00Z' },
    });
    expect(out.status, out.text).toBe(200);
    const fixed = await put(`/hr/attendance/${record.id}`, { clockOut: '2026-04-01T13:00:00Z' });
    expect(fixed.status, fixed.text).toBe(200);
    const gone = await server.rest('POST', `/v1/hr/employees/${person.id}/terminate`, { key: admin, body: {} });
    expect(gone.status, gone.text).toBe(200);
    const renamed = await put(`/hr/employees/${person.id}`, { jobTitle: 'Former engineer' });
    expect(renamed.status, renamed.text).toBe(200);
  });
});

describe('the new filters refuse what they cannot hold', () => {
  it('a NUL in objectId is a 400 naming it, not a database error', async () => {
    expectError(
      await server.rest('GET', '/v1/events?objectId=%00', { key: admin }),
      400,
      'VALIDATION_ERROR',
      'objectId',
    );
  });
});
