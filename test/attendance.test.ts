// Attendance over REST and GraphQL: clock-in (create), clock-out (the open ->
// closed lifecycle), corrections (PUT) and the minutes worked, the events each
// raises, the rules (an active employee clocks in once at a time, even
// concurrently; clock-out after clock-in, once), a failed commit, and the
// relations Attendance.employee / Employee.attendance.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let org: TestOrg;
let key: string;
let otherKey: string;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['hr:read', 'hr:write']);
  otherKey = await (await server.org()).key(['hr:read', 'hr:write']);
  // Refuses at COMMIT any event about a marked employee: the change and its event are written, then rolled back.
  await server.prisma.$executeRawUnsafe(`create table refused_employee (id text primary key)`);
  await server.prisma.$executeRawUnsafe(`
    create function refuse_marked_attendance() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from refused_employee where id = new.data -> 'object' ->> 'employeeId') then
        raise exception 'event % is about a marked employee', new.id;
      end if;
      return null;
    end $$`);
  await server.prisma.$executeRawUnsafe(`
    create constraint trigger refuse_marked_attendance after insert on "Event"
    deferrable initially deferred for each row execute function refuse_marked_attendance()`);
});

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
let counter = 0;

async function createEmployee(withKey = key) {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/employees', {
    key: withKey,
    body: { firstName: 'Ada', lastName: `Worker ${n}`, email: `attendance-${n}@example.test` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

const clockIn = (body: Record<string, unknown>, withKey = key) =>
  server.rest('POST', '/v1/hr/attendance', { key: withKey, body });
const clockOut = (id: string, body?: Record<string, unknown>) =>
  server.rest('POST', `/v1/hr/attendance/${id}/clock-out`, { key, body });
const put = (id: string, body: Record<string, unknown>) => server.rest('PUT', `/v1/hr/attendance/${id}`, { key, body });
const get = async (id: string) => (await server.rest('GET', `/v1/hr/attendance/${id}`, { key })).body;

async function openRecord(body: Record<string, unknown> = {}) {
  const employee = await createEmployee();
  const res = await clockIn({ employeeId: employee.id, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

interface EventBody {
  type: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

/** Every event about this record, oldest first. */
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

describe('clock-in: POST /v1/hr/attendance', () => {
  it('opens a record at now by default and raises attendance.logged with it', async () => {
    const employee = await createEmployee();
    const before = Date.now();
    const res = await clockIn({ employeeId: employee.id });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^att_[0-9a-z]{26}$/),
      employeeId: employee.id,
      clockIn: expect.stringMatching(ISO_UTC),
      clockOut: null,
      status: 'open',
      minutesWorked: null,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(Math.abs(Date.parse(res.body.clockIn) - before)).toBeLessThan(60_000);
    expect(await get(res.body.id)).toEqual(res.body);
    const events = await eventsOf(res.body.id);
    expect(events).toEqual([{ type: 'attendance.logged', data: { object: res.body } } as never]);
  });

  it('takes a given clockIn', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:30:00Z' });
    expect(record.clockIn).toBe('2026-03-02T08:30:00.000Z');
  });

  it('refuses a second clock-in while a record is open (409), and allows one after the clock-out', async () => {
    const record = await openRecord();
    const again = await clockIn({ employeeId: record.employeeId });
    expectError(again, 409, 'CONFLICT', 'employeeId');
    expect(again.body.error.message).toContain(record.id);
    expect((await clockOut(record.id)).status).toBe(200);
    expect((await clockIn({ employeeId: record.employeeId })).status).toBe(201);
  });

  it('lets exactly one of concurrent clock-ins of one employee pass', async () => {
    // Rounds of every employee's clock-ins at once, interleaved, so that checks and inserts race.
    for (let round = 0; round < 4; round++) {
      const staff = await Promise.all(Array.from({ length: 6 }, () => createEmployee()));
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => staff.map((employee) => clockIn({ employeeId: employee.id }))).flat(),
      );
      expect(answers.filter((res) => res.status === 201)).toHaveLength(staff.length);
      expect(answers.filter((res) => res.status === 409)).toHaveLength(7 * staff.length);
      for (const employee of staff) {
        const listed = await server.rest('GET', `/v1/hr/attendance?employeeId=${employee.id}`, { key });
        expect(listed.body.pagination.total).toBe(1);
      }
    }
  });

  it('refuses a terminated employee (409), and takes them back once reinstated', async () => {
    const employee = await createEmployee();
    const path = `/v1/hr/employees/${employee.id}`;
    expect((await server.rest('POST', `${path}/terminate`, { key })).status).toBe(200);
    const refused = await clockIn({ employeeId: employee.id });
    expectError(refused, 409, 'CONFLICT', 'employeeId');
    expect(refused.body.error.message).toContain('terminated');
    expect((await server.rest('POST', `${path}/reinstate`, { key })).status).toBe(200);
    expect((await clockIn({ employeeId: employee.id })).status).toBe(201);
  });

  it("refuses another organization's employee, an unknown and a malformed id with a 400 naming employeeId", async () => {
    const foreign = await createEmployee(otherKey);
    for (const employeeId of [foreign.id, `emp_${'0'.repeat(26)}`, 'nope']) {
      expectError(await clockIn({ employeeId }), 400, 'VALIDATION_ERROR', 'employeeId');
    }
    expectError(await clockIn({}), 400, 'VALIDATION_ERROR', 'employeeId');
  });

  it('refuses a clockIn that is not an ISO 8601 timestamp, and a clockOut (read-only at creation, issue 23)', async () => {
    const employee = await createEmployee();
    // An offset is accepted since issue 25 (stored in UTC); a date, a word or a number is not a timestamp.
    for (const value of ['2026-03-02', 'yesterday', '2026-03-02T08:30:00', 5]) {
      expectError(await clockIn({ employeeId: employee.id, clockIn: value }), 400, 'VALIDATION_ERROR', 'clockIn');
    }
    const early = await clockIn({ employeeId: employee.id, clockOut: '2026-03-02T08:30:00Z' });
    expectError(early, 400, 'VALIDATION_ERROR', 'clockOut');
    const open = await clockIn({ employeeId: employee.id, clockOut: null });
    expect(open.status, open.text).toBe(201);
    expect(open.body).toMatchObject({ status: 'open', clockOut: null });
  });
});

describe('clock-out: POST /v1/hr/attendance/:id/clock-out', () => {
  it('closes the record with the whole minutes worked, and raises attendance.logged with previousAttributes', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const res = await clockOut(record.id, { clockOut: '2026-03-02T16:29:59.999Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'closed', clockOut: '2026-03-02T16:29:59.999Z', minutesWorked: 509 });
    expect(await get(record.id)).toEqual(res.body);
    const [created, closed] = await eventsOf(record.id);
    expect(created!.data.object).toEqual(record);
    expect(closed).toEqual({
      type: 'attendance.logged',
      data: {
        object: res.body,
        previousAttributes: {
          status: 'open',
          clockOut: null,
          minutesWorked: null,
          updatedAt: record.updatedAt,
        },
      },
    });
  });

  it('defaults clockOut to now, and takes no body', async () => {
    const record = await openRecord({ clockIn: new Date(Date.now() - 90 * 60_000).toISOString() });
    const res = await clockOut(record.id);
    expect(res.status, res.text).toBe(200);
    expect(Math.abs(Date.parse(res.body.clockOut) - Date.now())).toBeLessThan(60_000);
    expect(res.body.minutesWorked).toBeGreaterThanOrEqual(89);
    expect(res.body.minutesWorked).toBeLessThanOrEqual(91);
  });

  it('refuses a clockOut not after clockIn with a 400 naming clockOut, and changes nothing', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    for (const at of ['2026-03-02T07:59:59Z', '2026-03-02T08:00:00Z']) {
      expectError(await clockOut(record.id, { clockOut: at }), 400, 'VALIDATION_ERROR', 'clockOut');
    }
    expect(await get(record.id)).toEqual(record);
    expect(await eventsOf(record.id)).toHaveLength(1);
  });

  it('happens once: a second clock-out is a 409 naming the closed state', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const closed = (await clockOut(record.id, { clockOut: '2026-03-02T09:00:00Z' })).body;
    const again = await clockOut(record.id, { clockOut: '2026-03-02T10:00:00Z' });
    expectError(again, 409, 'CONFLICT', 'status');
    expect(again.body.error.message).toBe('Attendance is closed; clockOut needs it to be open');
    expect(await get(record.id)).toEqual(closed);
  });

  it("is a 404 for another organization's record", async () => {
    const record = await openRecord();
    const res = await server.rest('POST', `/v1/hr/attendance/${record.id}/clock-out`, { key: otherKey });
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe('corrections: PUT /v1/hr/attendance/:id', () => {
  it('corrects clockIn and clockOut of a closed record, recomputes minutesWorked, and raises attendance.updated', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const closed = (await clockOut(record.id, { clockOut: '2026-03-02T12:00:00Z' })).body;
    const res = await put(record.id, { clockIn: '2026-03-02T07:45:00Z', clockOut: '2026-03-02T12:30:00Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ clockIn: '2026-03-02T07:45:00.000Z', clockOut: '2026-03-02T12:30:00.000Z' });
    expect(res.body.minutesWorked).toBe(285);
    expect(await get(record.id)).toEqual(res.body);
    expect((await eventsOf(record.id)).at(-1)).toEqual({
      type: 'attendance.updated',
      data: {
        object: res.body,
        previousAttributes: {
          clockIn: '2026-03-02T08:00:00.000Z',
          clockOut: '2026-03-02T12:00:00.000Z',
          minutesWorked: 240,
          updatedAt: closed.updatedAt,
        },
      },
    });
  });

  it('corrects the clockIn of an open record (minutesWorked stays null)', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const res = await put(record.id, { clockIn: '2026-03-02T08:05:00Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', clockIn: '2026-03-02T08:05:00.000Z', minutesWorked: null });
  });

  it('keeps clockOut after clockIn (400 naming clockOut), and a closed record keeps its clockOut', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const closed = (await clockOut(record.id, { clockOut: '2026-03-02T12:00:00Z' })).body;
    expectError(await put(record.id, { clockIn: '2026-03-02T12:00:00Z' }), 400, 'VALIDATION_ERROR', 'clockOut');
    expectError(await put(record.id, { clockOut: '2026-03-02T07:00:00Z' }), 400, 'VALIDATION_ERROR', 'clockOut');
    expectError(await put(record.id, { clockOut: null }), 400, 'VALIDATION_ERROR', 'clockOut');
    expectError(await put(record.id, { clockIn: null }), 400, 'VALIDATION_ERROR', 'clockIn');
    expect(await get(record.id)).toEqual(closed);
    expect(await eventsOf(record.id)).toHaveLength(2);
  });

  it('refuses a clockOut on an open record (400 naming the clock-out action that sets it)', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const res = await put(record.id, { clockOut: '2026-03-02T12:00:00Z' });
    expectError(res, 400, 'VALIDATION_ERROR', 'clockOut');
    expect(res.body.error.message).toContain('/clock-out');
    expect(await get(record.id)).toEqual(record);
  });

  it('refuses status in a PUT body (400 naming the clock-out action), and another employeeId (issue 23)', async () => {
    const record = await openRecord();
    const res = await put(record.id, { status: 'closed' });
    expectError(res, 400, 'VALIDATION_ERROR', 'status');
    expect(res.body.error.message).toContain('POST /v1/hr/attendance/:id/clock-out');
    expect(await get(record.id)).toEqual(record);
    const other = await createEmployee();
    expectError(await put(record.id, { employeeId: other.id }), 400, 'VALIDATION_ERROR', 'employeeId');
    expect(await get(record.id)).toEqual(record);
    const same = await put(record.id, { employeeId: record.employeeId });
    expect(same.status, same.text).toBe(200);
  });
});

describe("an employee's records never overlap", () => {
  it('refuses a clock-in inside a closed record, a clock-out or a correction that overlaps another (409)', async () => {
    const employee = await createEmployee();
    const shift = (await clockIn({ employeeId: employee.id, clockIn: '2026-03-02T09:00:00.000Z' })).body;
    expect((await clockOut(shift.id, { clockOut: '2026-03-02T17:00:00.000Z' })).status).toBe(200);

    const inside = await clockIn({ employeeId: employee.id, clockIn: '2026-03-02T12:00:00.000Z' });
    expect(inside.status, inside.text).toBe(409);
    expect(inside.body.error).toMatchObject({ code: 'CONFLICT', field: 'clockIn' });
    expect(inside.body.error.message).toContain(shift.id);

    // Back-filled the morning before: clocking in is fine, clocking out into the next shift is not.
    const earlier = await clockIn({ employeeId: employee.id, clockIn: '2026-03-01T22:00:00.000Z' });
    expect(earlier.status, earlier.text).toBe(201);
    const intoShift = await clockOut(earlier.body.id, { clockOut: '2026-03-02T10:00:00.000Z' });
    expect(intoShift.status, intoShift.text).toBe(409);
    expect(intoShift.body.error).toMatchObject({ code: 'CONFLICT', field: 'clockOut' });
    expect((await get(earlier.body.id)).status).toBe('open');
    const adjacent = await clockOut(earlier.body.id, { clockOut: '2026-03-02T09:00:00.000Z' });
    expect(adjacent.status, adjacent.text).toBe(200); // ends as the shift starts: no overlap

    const stretched = await put(shift.id, { clockIn: '2026-03-02T08:00:00.000Z' });
    expect(stretched.status, stretched.text).toBe(409);
    expect(stretched.body.error).toMatchObject({ code: 'CONFLICT', field: 'clockIn' });
    expect((await get(shift.id)).clockIn).toBe('2026-03-02T09:00:00.000Z');

    // Another employee's records are not looked at.
    const colleague = await createEmployee();
    const same = await clockIn({ employeeId: colleague.id, clockIn: '2026-03-02T12:00:00.000Z' });
    expect(same.status, same.text).toBe(201);
  });
});

describe('a failed commit', () => {
  it('leaves neither the change nor its event, for clock-in, clock-out and a correction', async () => {
    const record = await openRecord({ clockIn: '2026-03-02T08:00:00Z' });
    const marked = await createEmployee();
    await server.prisma.$executeRawUnsafe(`insert into refused_employee values ($1)`, marked.id);
    expectError(await clockIn({ employeeId: marked.id }), 500, 'INTERNAL_ERROR');
    const none = await server.rest('GET', `/v1/hr/attendance?employeeId=${marked.id}`, { key });
    expect(none.body.pagination.total).toBe(0);

    await server.prisma.$executeRawUnsafe(`insert into refused_employee values ($1)`, record.employeeId);
    expectError(await clockOut(record.id, { clockOut: '2026-03-02T09:00:00Z' }), 500, 'INTERNAL_ERROR');
    expectError(await put(record.id, { clockIn: '2026-03-02T07:00:00Z' }), 500, 'INTERNAL_ERROR');
    expect(await get(record.id)).toEqual(record);
    expect(await eventsOf(record.id)).toHaveLength(1);
  });
});

describe('GET /v1/hr/attendance', () => {
  it('filters by employeeId and by clock-in day from/to (UTC, inclusive)', async () => {
    const employee = await createEmployee();
    const ids: string[] = [];
    for (const [inAt, outAt] of [
      // Each ends as the next starts: an employee's records never overlap.
      ['2026-04-01T23:59:59.999Z', '2026-04-02T00:00:00Z'],
      ['2026-04-02T00:00:00Z', '2026-04-02T02:00:00Z'],
      ['2026-04-03T23:59:59.999Z', '2026-04-04T00:00:00Z'],
      ['2026-04-04T00:00:00Z', null],
    ] as const) {
      const res = await clockIn({ employeeId: employee.id, clockIn: inAt });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
      if (outAt) expect((await clockOut(res.body.id, { clockOut: outAt })).status).toBe(200);
    }
    const list = async (query: string) =>
      (await server.rest('GET', `/v1/hr/attendance?employeeId=${employee.id}&${query}`, { key })).body.data.map(
        (item: { id: string }) => item.id,
      );
    expect(await list('sort=clockIn')).toEqual(ids);
    expect(await list('from=2026-04-02&to=2026-04-03&sort=clockIn')).toEqual([ids[1], ids[2]]);
    expect(await list('from=2026-04-04')).toEqual([ids[3]]);
    expect(await list('to=2026-04-01')).toEqual([ids[0]]);
    const bad = await server.rest('GET', '/v1/hr/attendance?from=2026-02-30', { key });
    expectError(bad, 400, 'VALIDATION_ERROR', 'from');
  });
});

describe('GraphQL', () => {
  it('clocks in and out, and relates Attendance.employee and Employee.attendance', async () => {
    const employee = await createEmployee();
    const created = await server.gql(
      `mutation ($input: CreateAttendanceInput!) { createAttendance(input: $input) { id status employee { id } } }`,
      { input: { employeeId: employee.id, clockIn: '2026-05-01T09:00:00Z' } },
      { key },
    );
    expect(created.errors, created.text).toBeUndefined();
    const id = created.data.createAttendance.id;
    expect(created.data.createAttendance).toEqual({ id, status: 'open', employee: { id: employee.id } });
    const closed = await server.gql(
      `mutation ($id: ID!) { clockOutAttendance(id: $id, input: { clockOut: "2026-05-01T17:00:00Z" }) {
        status minutesWorked } }`,
      { id },
      { key },
    );
    expect(closed.errors, closed.text).toBeUndefined();
    expect(closed.data.clockOutAttendance).toEqual({ status: 'closed', minutesWorked: 480 });
    const again = await server.gql(`mutation ($id: ID!) { clockOutAttendance(id: $id) { id } }`, { id }, { key });
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const related = await server.gql(
      `query ($id: ID!) { employee(id: $id) { attendance(limit: 10) { data { id minutesWorked } } } attendanceRecord(id: "${id}") { id } attendance(employeeId: $id) { data { id } } }`,
      { id: employee.id },
      { key },
    );
    expect(related.errors, related.text).toBeUndefined();
    expect(related.data.employee.attendance.data).toEqual([{ id, minutesWorked: 480 }]);
    expect(related.data.attendanceRecord).toEqual({ id });
    expect(related.data.attendance.data).toEqual([{ id }]);
  });
});
