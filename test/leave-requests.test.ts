// Leave requests over REST and GraphQL: fields and their validation, the
// lifecycle (requested -> approved | rejected | cancelled; approved -> cancelled)
// with the event of every move, edits only while requested, no two overlapping
// approved requests of one employee (even when approved concurrently), a failed
// commit, and the relations LeaveRequest.employee / Employee.leaveRequests.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let org: TestOrg;
let key: string;
let otherKey: string;
const MARK = 'fail-at-commit';

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['hr:read', 'hr:write']);
  otherKey = await (await server.org()).key(['hr:read', 'hr:write']);
  // Refuses at COMMIT the events of a request whose reason carries the mark (all but leave.requested, unless
  // the reason is the create's mark): the change and its event are written, then rolled back.
  await server.prisma.$executeRawUnsafe(`
    create function refuse_marked_leave() returns trigger language plpgsql as $$
    begin
      if new.data -> 'object' ->> 'reason' = '${MARK}-create'
        or (new.data -> 'object' ->> 'reason' like '${MARK}%' and new.type <> 'leave.requested') then
        raise exception 'event % carries the mark', new.id;
      end if;
      return null;
    end $$`);
  await server.prisma.$executeRawUnsafe(`
    create constraint trigger refuse_marked_leave after insert on "Event"
    deferrable initially deferred for each row execute function refuse_marked_leave()`);
});

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
let counter = 0;

async function createEmployee(withKey = key) {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/employees', {
    key: withKey,
    body: { firstName: 'Grace', lastName: `Leave ${n}`, email: `leave-${n}@example.test` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

const post = (body: Record<string, unknown>, withKey = key) =>
  server.rest('POST', '/v1/hr/leave-requests', { key: withKey, body });
const act = (id: string, action: string, body?: Record<string, unknown>) =>
  server.rest('POST', `/v1/hr/leave-requests/${id}/${action}`, { key, body });
const put = (id: string, body: Record<string, unknown>) =>
  server.rest('PUT', `/v1/hr/leave-requests/${id}`, { key, body });
const get = async (id: string) => (await server.rest('GET', `/v1/hr/leave-requests/${id}`, { key })).body;

async function request(body: Record<string, unknown> = {}) {
  const employeeId = (body.employeeId as string | undefined) ?? (await createEmployee()).id;
  const res = await post({ type: 'vacation', from: '2026-07-01', to: '2026-07-10', ...body, employeeId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A request moved to `status` by the actions that lead there. */
async function requestIn(status: string, body: Record<string, unknown> = {}) {
  const created = await request(body);
  const path = { requested: [], approved: ['approve'], rejected: ['reject'], cancelled: ['cancel'] }[status]!;
  let record = created;
  for (const action of path) {
    const res = await act(created.id, action);
    expect(res.status, res.text).toBe(200);
    record = res.body;
  }
  return record;
}

interface EventBody {
  type: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

/** Every event about this request, oldest first. */
async function eventsOf(id: string): Promise<EventBody[]> {
  const events: EventBody[] = [];
  for (let page = 1; ; page++) {
    const res = await server.rest('GET', `/v1/events?limit=100&page=${page}`, { key });
    expect(res.status, res.text).toBe(200);
    const about = (res.body.data as EventBody[]).filter((event) => event.data.object.id === id);
    events.push(...about.map(({ type, data }) => ({ type, data })));
    if (page >= res.body.pagination.pages) return events;
  }
}

function expectError(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, ...(field && { field }) });
}

describe('POST /v1/hr/leave-requests', () => {
  it('creates a requested leave and raises leave.requested with it', async () => {
    const employee = await createEmployee();
    const res = await post({ employeeId: employee.id, type: 'sick', from: '2026-02-27', to: '2026-03-02' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^lve_[0-9a-z]{26}$/),
      employeeId: employee.id,
      type: 'sick',
      from: '2026-02-27',
      to: '2026-03-02',
      days: 2, // Friday 27 February and Monday 2 March: the weekend between is not worked
      reason: null,
      status: 'requested',
      rejectionReason: null,
      decidedAt: null,
      decidedBy: null,
      conflicts: [],
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(await get(res.body.id)).toEqual(res.body);
    expect(await eventsOf(res.body.id)).toEqual([{ type: 'leave.requested', data: { object: res.body } }]);
  });

  it('takes a one-day leave and a reason', async () => {
    const record = await request({ type: 'personal', from: '2026-08-03', to: '2026-08-03', reason: ' Move ' });
    expect(record).toMatchObject({ from: '2026-08-03', to: '2026-08-03', reason: 'Move' });
  });

  it.each([
    ['to', { to: '2026-06-30' }],
    ['type', { type: 'holiday' }],
    ['type', { type: undefined }],
    ['from', { from: '2026-02-30' }],
    ['to', { to: 'soon' }],
    ['reason', { reason: '' }],
  ])('refuses a bad %s with a 400 naming it', async (field, change) => {
    const employee = await createEmployee();
    const body = { employeeId: employee.id, type: 'vacation', from: '2026-07-01', to: '2026-07-10', ...change };
    expectError(await post(body), 400, 'VALIDATION_ERROR', field);
  });

  it("refuses another organization's employee, an unknown and a malformed id with a 400 naming employeeId", async () => {
    const foreign = await createEmployee(otherKey);
    for (const employeeId of [foreign.id, `emp_${'0'.repeat(26)}`, 'nope']) {
      const res = await post({ employeeId, type: 'vacation', from: '2026-07-01', to: '2026-07-02' });
      expectError(res, 400, 'VALIDATION_ERROR', 'employeeId');
    }
  });
});

describe("a terminated employee's leave", () => {
  it('is refused past the end date (create, edit and approve: 409 naming to, or from when it starts after), allowed within it', async () => {
    const employee = await createEmployee();
    const pending = await post({ employeeId: employee.id, type: 'vacation', from: '2026-04-01', to: '2026-04-10' });
    expect(pending.status, pending.text).toBe(201);
    const terminated = await server.rest('POST', `/v1/hr/employees/${employee.id}/terminate`, {
      key,
      body: { endDate: '2026-03-31' },
    });
    expect(terminated.status, terminated.text).toBe(200);

    const after = await post({ employeeId: employee.id, type: 'vacation', from: '2026-03-30', to: '2026-04-02' });
    expect(after.status, after.text).toBe(409);
    expect(after.body.error).toMatchObject({ code: 'CONFLICT', field: 'to' });
    expect(after.body.error.message).toContain('2026-03-31');
    // Requested before the termination, it starts after the end: from is outside the employment.
    const approved = await act(pending.body.id, 'approve');
    expect(approved.status, approved.text).toBe(409);
    expect(approved.body.error).toMatchObject({ code: 'CONFLICT', field: 'from' });
    expect(approved.body.error.message).toContain('terminated');

    // Sick leave inside the employment, recorded after it ended, is accepted and can be moved within it.
    const within = await post({ employeeId: employee.id, type: 'sick', from: '2026-03-20', to: '2026-03-31' });
    expect(within.status, within.text).toBe(201);
    const stretched = await server.rest('PUT', `/v1/hr/leave-requests/${within.body.id}`, {
      key,
      body: { to: '2026-04-03' },
    });
    expect(stretched.status, stretched.text).toBe(409);
    expect(stretched.body.error).toMatchObject({ code: 'CONFLICT', field: 'to' });
    expect((await act(within.body.id, 'approve')).status).toBe(200);
  });
});

describe('the lifecycle', () => {
  const moves = [
    ['approve', 'requested', 'approved', 'leave.approved'],
    ['reject', 'requested', 'rejected', 'leave.rejected'],
    ['cancel', 'requested', 'cancelled', 'leave.cancelled'],
    ['cancel', 'approved', 'cancelled', 'leave.cancelled'],
  ] as const;

  it.each(moves)(
    '%s moves a %s request to %s and raises %s with previousAttributes',
    async (action, from, to, type) => {
      const before = await requestIn(from);
      const res = await act(before.id, action);
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(to);
      expect(await get(before.id)).toEqual(res.body);
      const decided = action !== 'cancel';
      if (decided) expect(res.body.decidedAt).toMatch(ISO_UTC);
      else expect(res.body.decidedAt).toBe(before.decidedAt);
      expect((await eventsOf(before.id)).at(-1)).toEqual({
        type,
        data: {
          object: res.body,
          previousAttributes: {
            status: from,
            ...(decided && { decidedAt: null, decidedBy: null }),
            ...(action === 'reject' && { rejectionReason: null }),
            updatedAt: before.updatedAt,
          },
        },
      });
    },
  );

  const refused = [
    ['approve', 'approved'],
    ['approve', 'rejected'],
    ['approve', 'cancelled'],
    ['reject', 'approved'],
    ['reject', 'rejected'],
    ['reject', 'cancelled'],
    ['cancel', 'rejected'],
    ['cancel', 'cancelled'],
  ] as const;

  it.each(refused)(
    'refuses %s of a %s request with a 409 naming its state, and changes nothing',
    async (action, state) => {
      const record = await requestIn(state);
      const events = await eventsOf(record.id);
      const res = await act(record.id, action);
      expectError(res, 409, 'CONFLICT', 'status');
      expect(res.body.error.message).toMatch(new RegExp(`^LeaveRequest is ${state}; ${action} needs it to be`));
      expect(await get(record.id)).toEqual(record);
      expect(await eventsOf(record.id)).toEqual(events);
    },
  );

  it('keeps the reject reason as rejectionReason', async () => {
    const record = await request();
    const res = await act(record.id, 'reject', { reason: 'Peak season' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', rejectionReason: 'Peak season' });
    expect((await eventsOf(record.id)).at(-1)!.data.previousAttributes).toMatchObject({ rejectionReason: null });
  });
});

describe('overlapping approved leave', () => {
  it('refuses to approve a request overlapping an approved one (409), and allows it once that is cancelled', async () => {
    const first = await requestIn('approved', { from: '2026-09-01', to: '2026-09-10' });
    const employeeId = first.employeeId as string;
    const overlapping = await request({ employeeId, from: '2026-09-10', to: '2026-09-12' });
    const adjacent = await request({ employeeId, from: '2026-09-11', to: '2026-09-12' });
    const res = await act(overlapping.id, 'approve');
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toContain(first.id);
    expect(await get(overlapping.id)).toEqual(overlapping);
    expect((await act(adjacent.id, 'approve')).status).toBe(200);
    // Another employee's approved leave does not count.
    expect((await requestIn('approved', { from: '2026-09-01', to: '2026-09-10' })).status).toBe('approved');
    expect((await act(first.id, 'cancel')).status).toBe(200);
    expectError(await act(overlapping.id, 'approve'), 409, 'CONFLICT'); // still overlaps the adjacent one
    expect((await act(adjacent.id, 'cancel')).status).toBe(200);
    expect((await act(overlapping.id, 'approve')).status).toBe(200);
  });

  it('lets exactly one of concurrent approvals of overlapping requests pass', async () => {
    for (let round = 0; round < 4; round++) {
      const staff = await Promise.all(Array.from({ length: 4 }, () => createEmployee()));
      const requests = await Promise.all(
        staff.flatMap((employee) =>
          Array.from({ length: 4 }, (_, i) =>
            request({ employeeId: employee.id, from: `2026-10-0${i + 1}`, to: '2026-10-09' }),
          ),
        ),
      );
      const answers = await Promise.all(requests.map((record) => act(record.id, 'approve')));
      expect(answers.filter((res) => res.status === 200)).toHaveLength(staff.length);
      expect(answers.filter((res) => res.status === 409)).toHaveLength(3 * staff.length);
      for (const employee of staff) {
        const listed = await server.rest('GET', `/v1/hr/leave-requests?employeeId=${employee.id}&status=approved`, {
          key,
        });
        expect(listed.body.pagination.total).toBe(1);
      }
    }
  });
});

describe('PUT /v1/hr/leave-requests/:id', () => {
  it('edits a requested leave and raises leave.updated with previousAttributes', async () => {
    const record = await request();
    const res = await put(record.id, { type: 'unpaid', to: '2026-07-12', reason: 'Longer' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ type: 'unpaid', from: '2026-07-01', to: '2026-07-12', reason: 'Longer' });
    expect(await get(record.id)).toEqual(res.body);
    expect((await eventsOf(record.id)).at(-1)).toEqual({
      type: 'leave.updated',
      data: {
        object: res.body,
        previousAttributes: { type: 'vacation', to: '2026-07-10', reason: null, updatedAt: record.updatedAt },
      },
    });
  });

  it('keeps to not before from (400 naming to)', async () => {
    const record = await request();
    expectError(await put(record.id, { from: '2026-07-11' }), 400, 'VALIDATION_ERROR', 'to');
    expectError(await put(record.id, { to: '2026-06-30' }), 400, 'VALIDATION_ERROR', 'to');
    expect(await get(record.id)).toEqual(record);
  });

  it.each(['approved', 'rejected', 'cancelled'])('refuses to edit a %s request (409)', async (state) => {
    const record = await requestIn(state);
    const res = await put(record.id, { reason: 'Too late' });
    expectError(res, 409, 'CONFLICT', 'status');
    expect(res.body.error.message).toBe(`LeaveRequest is ${state}; it can be edited only while requested`);
    expect(await get(record.id)).toEqual(record);
  });

  it('refuses status in the body with a 400 naming the actions to use', async () => {
    const record = await request();
    const res = await put(record.id, { status: 'approved' });
    expectError(res, 400, 'VALIDATION_ERROR', 'status');
    for (const action of ['approve', 'reject', 'cancel']) {
      expect(res.body.error.message).toContain(`POST /v1/hr/leave-requests/:id/${action}`);
    }
    expect(await get(record.id)).toEqual(record);
  });
});

describe('a failed commit', () => {
  it('leaves neither the change nor its event, for a create, an edit and every action', async () => {
    const employee = await createEmployee();
    const body = { employeeId: employee.id, type: 'other', from: '2026-07-01', to: '2026-07-01' };
    expectError(await post({ ...body, reason: `${MARK}-create` }), 500, 'INTERNAL_ERROR');
    const listed = await server.rest('GET', `/v1/hr/leave-requests?employeeId=${employee.id}`, { key });
    expect(listed.body.pagination.total).toBe(0);

    const record = await request({ reason: MARK });
    expectError(await put(record.id, { reason: `${MARK} edited` }), 500, 'INTERNAL_ERROR');
    for (const action of ['approve', 'reject', 'cancel']) {
      expectError(await act(record.id, action), 500, 'INTERNAL_ERROR');
    }
    expect(await get(record.id)).toEqual(record);
    expect((await eventsOf(record.id)).map((event) => event.type)).toEqual(['leave.requested']);
  });
});

describe('GET /v1/hr/leave-requests', () => {
  it('filters by employeeId, status, and a date range the request overlaps', async () => {
    const employee = await createEmployee();
    const employeeId = employee.id;
    const a = await request({ employeeId, from: '2026-05-01', to: '2026-05-05' });
    const b = await request({ employeeId, from: '2026-05-05', to: '2026-05-20' });
    const c = await request({ employeeId, from: '2026-06-01', to: '2026-06-01' });
    expect((await act(b.id, 'approve')).status).toBe(200);
    const list = async (query: string) =>
      (await server.rest('GET', `/v1/hr/leave-requests?employeeId=${employeeId}&${query}`, { key })).body.data.map(
        (item: { id: string }) => item.id,
      );
    expect(await list('sort=from')).toEqual([a.id, b.id, c.id]);
    expect(await list('status=approved')).toEqual([b.id]);
    expect(await list('status=requested')).toEqual([a.id, c.id]);
    expect(await list('from=2026-05-06&to=2026-05-31')).toEqual([b.id]);
    expect(await list('from=2026-05-05&to=2026-05-05')).toEqual([a.id, b.id]);
    expect(await list('from=2026-06-01')).toEqual([c.id]);
    expect(await list('to=2026-05-04')).toEqual([a.id]);
    expectError(
      await server.rest('GET', '/v1/hr/leave-requests?status=done', { key }),
      400,
      'VALIDATION_ERROR',
      'status',
    );
  });
});

describe('GraphQL', () => {
  it('creates, approves and relates LeaveRequest.employee and Employee.leaveRequests', async () => {
    const employee = await createEmployee();
    const created = await server.gql(
      `mutation ($input: CreateLeaveRequestInput!) { createLeaveRequest(input: $input) { id status employee { id } } }`,
      { input: { employeeId: employee.id, type: 'vacation', from: '2026-12-24', to: '2026-12-31' } },
      { key },
    );
    expect(created.errors, created.text).toBeUndefined();
    const id = created.data.createLeaveRequest.id;
    expect(created.data.createLeaveRequest).toEqual({ id, status: 'requested', employee: { id: employee.id } });
    const approved = await server.gql(
      `mutation ($id: ID!) { approveLeaveRequest(id: $id) { status } }`,
      { id },
      { key },
    );
    expect(approved.errors, approved.text).toBeUndefined();
    expect(approved.data.approveLeaveRequest).toEqual({ status: 'approved' });
    const rejected = await server.gql(
      `mutation ($id: ID!) { rejectLeaveRequest(id: $id, input: { reason: "No" }) { id } }`,
      { id },
      { key },
    );
    expect(rejected.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const related = await server.gql(
      `query ($id: ID!) { employee(id: $id) { leaveRequests(limit: 5) { data { id status } } }
        leaveRequests(employeeId: $id, status: approved) { data { id } } }`,
      { id: employee.id },
      { key },
    );
    expect(related.errors, related.text).toBeUndefined();
    expect(related.data.employee.leaveRequests.data).toEqual([{ id, status: 'approved' }]);
    expect(related.data.leaveRequests.data).toEqual([{ id }]);
  });
});
