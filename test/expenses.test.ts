// Expenses over REST and GraphQL: the fields and their rules (an employee of
// the organization, a positive amount, an https receipt), the lifecycle
// draft -> submitted -> approved | rejected, approved -> reimbursed with an
// event per move, edits only while draft, action-only fields refused in a PUT
// body, and a failed commit that leaves neither the move nor its event.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
const MARK = 'fail-at-commit';
let org: TestOrg;
let key: string;
let employeeId: string;
let foreignEmployeeId: string;

async function hire(withKey: string) {
  const res = await server.rest('POST', '/v1/hr/employees', {
    key: withKey,
    body: { firstName: 'Ada', lastName: 'Spender', email: `spender-${Math.random()}@example.test` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['finance:read', 'finance:write', 'hr:read', 'hr:write']);
  employeeId = await hire(key);
  foreignEmployeeId = await hire(await (await server.org()).key(['hr:write']));
  // Refuses at COMMIT an event whose object holds a value starting with the mark (see atomicity.test.ts).
  await server.prisma.$executeRawUnsafe(`
    create function refuse_marked_event() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from jsonb_each_text(new.data -> 'object') where value like '${MARK}%') then
        raise exception 'event % carries the mark', new.id;
      end if;
      return null;
    end $$`);
  await server.prisma.$executeRawUnsafe(`
    create constraint trigger refuse_marked_event after insert on "Event"
    deferrable initially deferred for each row execute function refuse_marked_event()`);
});

const post = (body: Record<string, unknown>, withKey = key) =>
  server.rest('POST', '/v1/finance/expenses', { key: withKey, body });

async function draft(body: Record<string, unknown> = {}) {
  const res = await post({
    employeeId,
    amount: 4250,
    currency: 'eur',
    category: 'travel',
    incurredOn: '2026-03-14',
    description: 'Train to the customer',
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const put = (id: string, body: unknown) => server.rest('PUT', `/v1/finance/expenses/${id}`, { key, body });
const act = (id: string, action: string, body?: unknown) =>
  server.rest('POST', `/v1/finance/expenses/${id}/${action}`, { key, body });
const get = async (id: string) => (await server.rest('GET', `/v1/finance/expenses/${id}`, { key })).body;

async function moved(id: string, action: string, body?: unknown) {
  const res = await act(id, action, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

interface EventBody {
  type: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

async function eventsOf(id: string): Promise<EventBody[]> {
  const res = await server.rest('GET', '/v1/events?limit=100', { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.filter((event: EventBody) => event.data.object.id === id);
}

function expectRefused(res: TestResponse, status: number, code: string, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, field });
  if (message) expect(res.body.error.message).toMatch(message);
}

describe('POST /v1/finance/expenses', () => {
  it('creates a draft (currency upper-cased, stamps null) and raises expense.created', async () => {
    const expense = await draft();
    expect(expense).toMatchObject({
      employeeId,
      amount: 4250,
      currency: 'EUR',
      category: 'travel',
      incurredOn: '2026-03-14',
      receiptUrl: null,
      status: 'draft',
      submittedAt: null,
      decidedAt: null,
      decidedBy: null,
      rejectionReason: null,
      reimbursedAt: null,
    });
    expect(expense.id).toMatch(/^exp_[0-9a-z]{26}$/);
    expect(await get(expense.id)).toEqual(expense);
    expect((await eventsOf(expense.id)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'expense.created', data: { object: expense } },
    ]);
  });

  it.each([
    ['receiptUrl', { receiptUrl: 'http://receipts.example.test/1.pdf' }],
    ['receiptUrl', { receiptUrl: 'ftp://receipts.example.test/1.pdf' }],
    ['receiptUrl', { receiptUrl: 'not a url' }],
    ['amount', { amount: 0 }],
    ['amount', { amount: -5 }],
    ['amount', { amount: 1.5 }],
    ['currency', { currency: 'XXQ' }],
    ['category', { category: 'gifts' }],
    ['incurredOn', { incurredOn: '2026-02-30' }],
    ['employeeId', { employeeId: 'emp_nope' }],
    ['status', { status: 'approved' }],
  ])('refuses a bad %s (%j), writing nothing', async (field, body) => {
    const total = async () => (await server.rest('GET', '/v1/finance/expenses?limit=1', { key })).body.pagination.total;
    const before = await total();
    expectRefused(
      await post({ employeeId, amount: 1, currency: 'USD', category: 'meals', incurredOn: '2026-01-01', ...body }),
      400,
      'VALIDATION_ERROR',
      field,
    );
    expect(await total()).toBe(before);
  });

  it('takes an https receipt', async () => {
    const expense = await draft({ receiptUrl: 'https://receipts.example.test/r/1.pdf' });
    expect(expense.receiptUrl).toBe('https://receipts.example.test/r/1.pdf');
    expectRefused(
      await put(expense.id, { receiptUrl: 'http://x.example.test' }),
      400,
      'VALIDATION_ERROR',
      'receiptUrl',
    );
  });

  it("refuses another organization's employee with 400 naming employeeId, on create and update", async () => {
    const res = await post({
      employeeId: foreignEmployeeId,
      amount: 1,
      currency: 'USD',
      category: 'other',
      incurredOn: '2026-01-01',
    });
    expectRefused(res, 400, 'VALIDATION_ERROR', 'employeeId', /no employee with this id/);
    const expense = await draft();
    expectRefused(await put(expense.id, { employeeId: foreignEmployeeId }), 400, 'VALIDATION_ERROR', 'employeeId');
    expect(await get(expense.id)).toEqual(expense);
  });
});

describe('the lifecycle', () => {
  it('submit, approve, reimburse: each answers the record, stamps its time and raises its event with the previous values', async () => {
    const expense = await draft();
    const submitted = await moved(expense.id, 'submit');
    expect(submitted).toMatchObject({ status: 'submitted', submittedAt: expect.any(String) });
    const approved = await moved(expense.id, 'approve');
    expect(approved).toMatchObject({ status: 'approved', decidedAt: expect.any(String) });
    const reimbursed = await moved(expense.id, 'reimburse');
    expect(reimbursed).toMatchObject({ status: 'reimbursed', reimbursedAt: expect.any(String) });
    expect(await get(expense.id)).toEqual(reimbursed);
    expect((await eventsOf(expense.id)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'expense.created', data: { object: expense } },
      {
        type: 'expense.submitted',
        data: {
          object: submitted,
          previousAttributes: { status: 'draft', submittedAt: null, updatedAt: expense.updatedAt },
        },
      },
      {
        type: 'expense.approved',
        data: {
          object: approved,
          previousAttributes: {
            status: 'submitted',
            decidedAt: null,
            decidedBy: null,
            updatedAt: submitted.updatedAt,
          },
        },
      },
      {
        type: 'expense.reimbursed',
        data: {
          object: reimbursed,
          previousAttributes: { status: 'approved', reimbursedAt: null, updatedAt: approved.updatedAt },
        },
      },
    ]);
  });

  it('reject keeps the reason (optional) and raises expense.rejected', async () => {
    const expense = await draft();
    const submitted = await moved(expense.id, 'submit');
    const rejected = await moved(expense.id, 'reject', { reason: 'No receipt' });
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejectionReason: 'No receipt',
      decidedAt: expect.any(String),
    });
    const event = (await eventsOf(expense.id)).find((e) => e.type === 'expense.rejected')!;
    expect(event.data).toEqual({
      object: rejected,
      previousAttributes: {
        status: 'submitted',
        decidedAt: null,
        decidedBy: null,
        rejectionReason: null,
        updatedAt: submitted.updatedAt,
      },
    });
    const other = await draft();
    await moved(other.id, 'submit');
    expect(await moved(other.id, 'reject')).toMatchObject({ status: 'rejected', rejectionReason: null });
    expectRefused(await act(other.id, 'reject', { reason: 1 }), 400, 'VALIDATION_ERROR', 'reason');
  });

  it('refuses every move from a state it cannot start from with 409 naming the state, changing nothing', async () => {
    const refusals: [string, string[]][] = [
      ['draft', ['approve', 'reject', 'reimburse']],
      ['submitted', ['submit', 'reimburse']],
      ['approved', ['submit', 'approve', 'reject']],
      ['rejected', ['submit', 'approve', 'reject', 'reimburse']],
      ['reimbursed', ['submit', 'approve', 'reject', 'reimburse']],
    ];
    const pathTo: Record<string, string[]> = {
      draft: [],
      submitted: ['submit'],
      approved: ['submit', 'approve'],
      rejected: ['submit', 'reject'],
      reimbursed: ['submit', 'approve', 'reimburse'],
    };
    for (const [state, actions] of refusals) {
      const expense = await draft();
      for (const step of pathTo[state]!) await moved(expense.id, step);
      const before = await get(expense.id);
      const events = await eventsOf(expense.id);
      for (const action of actions) {
        expectRefused(
          await act(expense.id, action),
          409,
          'CONFLICT',
          'status',
          new RegExp(`^Expense is ${state}; ${action} needs it`),
        );
      }
      expect(await get(expense.id)).toEqual(before);
      expect(await eventsOf(expense.id)).toEqual(events);
    }
  });

  it('a failed commit leaves neither the move nor its event', async () => {
    const expense = await draft();
    await moved(expense.id, 'submit');
    const before = await get(expense.id);
    const events = await eventsOf(expense.id);
    const res = await act(expense.id, 'reject', { reason: `${MARK}: refused` });
    expect(res.status, res.text).toBe(500);
    expect(await get(expense.id)).toEqual(before);
    expect(await eventsOf(expense.id)).toEqual(events);
  });
});

describe('PUT /v1/finance/expenses/:id', () => {
  it('edits a draft (expense.updated); refuses an edit in every other state with 409 naming it', async () => {
    const expense = await draft();
    const edited = await put(expense.id, { amount: 999, category: 'meals', description: null });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ amount: 999, category: 'meals', description: null, status: 'draft' });
    expect((await eventsOf(expense.id)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'expense.created', data: { object: expense } },
      {
        type: 'expense.updated',
        data: {
          object: edited.body,
          previousAttributes: {
            amount: expense.amount,
            category: expense.category,
            description: expense.description,
            updatedAt: expense.updatedAt,
          },
        },
      },
    ]);
    for (const step of ['submit', 'approve', 'reimburse']) {
      const state = (await moved(expense.id, step)).status;
      const before = await get(expense.id);
      const res = await put(expense.id, { amount: 1 });
      expectRefused(
        res,
        409,
        'CONFLICT',
        'status',
        new RegExp(`^Expense is ${state}; it can be edited only while draft`),
      );
      expect(await get(expense.id)).toEqual(before);
    }
  });

  it('refuses status and the stamps in a PUT body, naming the action; the record sent back as read passes', async () => {
    const expense = await draft();
    expectRefused(
      await put(expense.id, { status: 'submitted' }),
      400,
      'VALIDATION_ERROR',
      'status',
      /POST \/v1\/finance\/expenses\/:id\/submit/,
    );
    expectRefused(
      await put(expense.id, { rejectionReason: 'x' }),
      400,
      'VALIDATION_ERROR',
      'rejectionReason',
      /reject/,
    );
    expect(await get(expense.id)).toEqual(expense);
    const echoed = await put(expense.id, { ...expense, description: 'Echoed' });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body).toMatchObject({ status: 'draft', description: 'Echoed' });
  });
});

describe('lists and GraphQL', () => {
  it('filters by status, employeeId and incurredOn from/to (inclusive)', async () => {
    const own = await server.org();
    const ownKey = await own.key(['finance:read', 'finance:write', 'hr:write']);
    const [a, b] = [await hire(ownKey), await hire(ownKey)];
    const make = async (employee: string, incurredOn: string) => {
      const res = await post(
        { employeeId: employee, amount: 10, currency: 'USD', category: 'supplies', incurredOn },
        ownKey,
      );
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const x = await make(a, '2026-01-31');
    const y = await make(a, '2026-02-01');
    const z = await make(b, '2026-02-28');
    await server.rest('POST', `/v1/finance/expenses/${y}/submit`, { key: ownKey });
    const ids = async (query: string) =>
      (await server.rest('GET', `/v1/finance/expenses?${query}`, { key: ownKey })).body.data.map(
        (e: { id: string }) => e.id,
      );
    expect(await ids(`employeeId=${a}`)).toEqual([x, y]);
    expect(await ids('status=submitted')).toEqual([y]);
    expect(await ids('from=2026-02-01')).toEqual([y, z]);
    expect(await ids('to=2026-02-01')).toEqual([x, y]);
    expect(await ids('from=2026-02-01&to=2026-02-27')).toEqual([y]);
    expectRefused(
      await server.rest('GET', '/v1/finance/expenses?from=2026-13-01', { key: ownKey }),
      400,
      'VALIDATION_ERROR',
      'from',
    );
  });

  it('serves expense, the actions, Expense.employee and Employee.expenses (paged) in GraphQL', async () => {
    const one = await draft();
    const two = await draft();
    const res = await server.gql(
      `mutation ($id: ID!) { submitExpense(id: $id) { status } rejectExpense(id: $id, input: { reason: "Late" }) { status rejectionReason } }`,
      { id: one.id },
      { key },
    );
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data).toEqual({
      submitExpense: { status: 'submitted' },
      rejectExpense: { status: 'rejected', rejectionReason: 'Late' },
    });
    const read = await server.gql(
      `query ($id: ID!, $employee: ID!) {
        expense(id: $id) { amount employee { id } }
        employee(id: $employee) { expenses(limit: 100) { data { id } } }
      }`,
      { id: two.id, employee: employeeId },
      { key },
    );
    expect(read.errors, read.text).toBeUndefined();
    expect(read.data.expense).toEqual({ amount: 4250, employee: { id: employeeId } });
    expect(read.data.employee.expenses.data.map((e: { id: string }) => e.id)).toContain(two.id);
    // The employee is HR's: reading it needs hr:read.
    const financeOnly = await org.key(['finance:read']);
    const denied = await server.gql(
      `query ($id: ID!) { expense(id: $id) { id employee { id } } }`,
      { id: two.id },
      { key: financeOnly },
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
