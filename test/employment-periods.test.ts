// Employment periods and notice (issue 25): terminate with a later endDate keeps
// the employee active until that day ends in the organization's time zone, then
// the worker's task terminates them (actor system); reinstate opens a new period
// (the gap is outside the employment) or, on or before the end, withdraws it.
// Attendance keeps to the employment, to the clock and to 24 hours, takes
// offsets, and its day filters follow the organization's time zone.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endNotices } from '../src/graphql/hr/employee/notice-ends.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let org: TestOrg;
let key: string;
let pool: pg.Pool;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['hr:read', 'hr:write']);
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
});
afterAll(async () => {
  await pool?.end();
});

let counter = 0;
async function hire(body: Record<string, unknown> = {}) {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/employees', {
    key,
    body: { firstName: 'Ada', lastName: `Leaver ${n}`, email: `periods-${n}@example.test`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as Record<string, unknown> & { id: string };
}
const act = (id: string, action: string, body?: Record<string, unknown>) =>
  server.rest('POST', `/v1/hr/employees/${id}/${action}`, { key, body });
const get = async (id: string) => (await server.rest('GET', `/v1/hr/employees/${id}`, { key })).body;
const clockIn = (body: Record<string, unknown>) => server.rest('POST', '/v1/hr/attendance', { key, body });

function expectError(res: TestResponse, status: number, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.field).toBe(field);
  if (message) expect(res.body.error.message).toMatch(message);
}

/** The events about this record, oldest first, with their actor. */
async function eventsOf(id: string) {
  const res = await server.rest('GET', '/v1/events?limit=100', { key });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { type: string; actor: { type: string }; data: { object: { id: string } } }[]).filter(
    (event) => event.data.object.id === id,
  );
}

const setTimeZone = (timeZone: string) =>
  server.prisma.$executeRawUnsafe(`update "Organization" set "timeZone" = $1 where id = $2`, timeZone, org.id);

/** The organization's date today (its time zone), plus `days`. */
async function organizationDay(days = 0): Promise<string> {
  const [row] = await server.prisma.$queryRawUnsafe<{ day: string }[]>(
    `select to_char((now() at time zone "timeZone")::date + $2::int, 'YYYY-MM-DD') as day
     from "Organization" where id = $1`,
    org.id,
    days,
  );
  return row!.day;
}

describe('notice: terminate with a later endDate', () => {
  it('keeps the employee active (clock-ins accepted) until the day ends, then the worker terminates them', async () => {
    const employee = await hire({ startDate: '2024-01-01' });
    const lastDay = await organizationDay(10);
    const notice = await act(employee.id, 'terminate', { endDate: lastDay });
    expect(notice.status, notice.text).toBe(200);
    expect(notice.body).toMatchObject({
      status: 'active',
      endDate: lastDay,
      employments: [{ startDate: '2024-01-01', endDate: lastDay }],
    });
    expect((await clockIn({ employeeId: employee.id })).status).toBe(201);

    // Nothing is due yet: the task leaves them active.
    await endNotices(pool);
    expect((await get(employee.id)).status).toBe('active');

    // The days pass (the end date moved to yesterday, as the calendar would): the task ends the employment.
    const yesterday = await organizationDay(-1);
    await server.prisma.$executeRawUnsafe(
      `update "Employee" set "endDate" = $1::date where id = $2`,
      yesterday,
      employee.id,
    );
    expect(await endNotices(pool)).toBeGreaterThanOrEqual(1);
    expect(await get(employee.id)).toMatchObject({ status: 'terminated', endDate: yesterday });
    const events = await eventsOf(employee.id);
    expect(events.map((event) => [event.type, event.actor.type])).toEqual([
      ['employee.created', 'api_key'],
      ['employee.notice_given', 'api_key'],
      ['employee.terminated', 'system'],
    ]);
    // Once is enough: a second run finds nothing of theirs.
    await endNotices(pool);
    expect((await eventsOf(employee.id)).length).toBe(3);
  });

  it("ends on the day of the organization's time zone, not UTC's", async () => {
    // Kiritimati is UTC+14: its today is UTC's today or tomorrow, never before.
    await setTimeZone('Pacific/Kiritimati');
    try {
      const today = await organizationDay();
      const ending = await hire();
      const staying = await hire();
      for (const employee of [ending, staying]) {
        expect((await act(employee.id, 'terminate', { endDate: await organizationDay(5) })).status).toBe(200);
      }
      await server.prisma.$executeRawUnsafe(
        `update "Employee" set "endDate" = ($1::date - 1) where id = $2`,
        today,
        ending.id,
      );
      await server.prisma.$executeRawUnsafe(
        `update "Employee" set "endDate" = $1::date where id = $2`,
        today,
        staying.id,
      );
      await endNotices(pool);
      expect((await get(ending.id)).status).toBe('terminated');
      expect((await get(staying.id)).status).toBe('active'); // their last day is today, there
    } finally {
      await setTimeZone('UTC');
    }
  });

  it('terminates at once when the endDate is today or has passed, and a second terminate moves a notice', async () => {
    const now = await hire();
    expect((await act(now.id, 'terminate', { endDate: await organizationDay() })).body.status).toBe('terminated');
    const noticed = await hire();
    expect((await act(noticed.id, 'terminate', { endDate: await organizationDay(30) })).body.status).toBe('active');
    const sooner = await act(noticed.id, 'terminate', { endDate: await organizationDay(-2) });
    expect(sooner.body).toMatchObject({ status: 'terminated', endDate: await organizationDay(-2) });
  });
});

describe('reinstate: a new period of employment', () => {
  it('opens a period from startDate; the gap is outside the employment (attendance in it is refused)', async () => {
    const employee = await hire({ startDate: '2025-01-06' });
    expect((await act(employee.id, 'terminate', { endDate: '2025-06-30' })).status).toBe(200);
    const back = await act(employee.id, 'reinstate', { startDate: '2025-09-01' });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({
      status: 'active',
      startDate: '2025-09-01',
      endDate: null,
      employments: [
        { startDate: '2025-01-06', endDate: '2025-06-30' },
        { startDate: '2025-09-01', endDate: null },
      ],
    });
    // July 2025 is in the gap; June and September are employed.
    expectError(
      await clockIn({ employeeId: employee.id, clockIn: '2025-07-15T09:00:00Z' }),
      409,
      'clockIn',
      /2025-07-15/,
    );
    expect((await clockIn({ employeeId: employee.id, clockIn: '2025-06-30T09:00:00Z' })).status).toBe(201);
  });

  it('withdraws the termination when the startDate is on or before the end: the same period goes on', async () => {
    const employee = await hire({ startDate: '2025-01-06' });
    await act(employee.id, 'terminate', { endDate: '2025-06-30' });
    const back = await act(employee.id, 'reinstate', { startDate: '2025-06-30' });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({
      status: 'active',
      startDate: '2025-01-06',
      endDate: null,
      employments: [{ startDate: '2025-01-06', endDate: null }],
    });
  });

  it('defaults to today: terminated on the 1st and reinstated today, the days between are a gap', async () => {
    const employee = await hire({ startDate: '2025-01-06' });
    const today = await organizationDay();
    const ended = await organizationDay(-20);
    await act(employee.id, 'terminate', { endDate: ended });
    const back = await act(employee.id, 'reinstate');
    expect(back.body.employments).toEqual([
      { startDate: '2025-01-06', endDate: ended },
      { startDate: today, endDate: null },
    ]);
  });
});

describe('attendance keeps to the employment, the clock and the day', () => {
  it('accepts an offset and answers UTC', async () => {
    const employee = await hire({ startDate: '2026-01-05' });
    const res = await clockIn({ employeeId: employee.id, clockIn: '2026-03-02T09:30:00+01:00' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.clockIn).toBe('2026-03-02T08:30:00.000Z');
    const out = await server.rest('POST', `/v1/hr/attendance/${res.body.id}/clock-out`, {
      key,
      body: { clockOut: '2026-03-02T12:00:00-05:00' }, // 17:00Z: 8 h 30 min after 08:30Z
    });
    expect(out.body).toMatchObject({ clockOut: '2026-03-02T17:00:00.000Z', minutesWorked: 510 });
  });

  it('refuses a clock-in before the start date (409), one more than 5 minutes ahead and a record over 24 hours (400)', async () => {
    const employee = await hire({ startDate: '2026-03-02' });
    expectError(await clockIn({ employeeId: employee.id, clockIn: '2026-03-01T09:00:00Z' }), 409, 'clockIn');
    const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
    expectError(await clockIn({ employeeId: employee.id, clockIn: nextYear }), 400, 'clockIn', /5 minutes/);
    const soon = new Date(Date.now() + 60_000).toISOString(); // a clock a minute fast is fine
    const fast = await clockIn({ employeeId: employee.id, clockIn: soon });
    expect(fast.status, fast.text).toBe(201);
    expect((await server.rest('DELETE', `/v1/hr/attendance/${fast.body.id}`, { key })).status).toBe(204);

    const shift = await clockIn({ employeeId: employee.id, clockIn: '2026-03-02T08:00:00Z' });
    const long = await server.rest('POST', `/v1/hr/attendance/${shift.body.id}/clock-out`, {
      key,
      body: { clockOut: '2026-03-05T08:00:00Z' }, // 72 hours
    });
    expectError(long, 400, 'clockOut', /24 hours/);
    const day = await server.rest('POST', `/v1/hr/attendance/${shift.body.id}/clock-out`, {
      key,
      body: { clockOut: '2026-03-03T08:00:00Z' }, // exactly 24 hours
    });
    expect(day.body).toMatchObject({ status: 'closed', minutesWorked: 1440 });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expectError(
      await server.rest('PUT', `/v1/hr/attendance/${shift.body.id}`, { key, body: { clockOut: later } }),
      400,
      'clockOut',
    );
  });

  it('a clock-in next year no longer blocks every real one', async () => {
    const employee = await hire();
    const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
    expect((await clockIn({ employeeId: employee.id, clockIn: nextYear })).status).toBe(400);
    expect((await clockIn({ employeeId: employee.id })).status).toBe(201);
  });

  it('deletes an open record (attendance.deleted) but not a closed one (409 naming status)', async () => {
    const employee = await hire();
    const open = await clockIn({ employeeId: employee.id, clockIn: '2026-03-02T08:00:00Z' });
    const gone = await server.rest('DELETE', `/v1/hr/attendance/${open.body.id}`, { key });
    expect(gone.status, gone.text).toBe(204);
    expect((await server.rest('GET', `/v1/hr/attendance/${open.body.id}`, { key })).status).toBe(404);
    expect((await eventsOf(open.body.id)).map((event) => event.type)).toEqual([
      'attendance.logged',
      'attendance.deleted',
    ]);

    const closed = await clockIn({ employeeId: employee.id, clockIn: '2026-03-03T08:00:00Z' });
    await server.rest('POST', `/v1/hr/attendance/${closed.body.id}/clock-out`, {
      key,
      body: { clockOut: '2026-03-03T16:00:00Z' },
    });
    const refused = await server.rest('DELETE', `/v1/hr/attendance/${closed.body.id}`, { key });
    expectError(refused, 409, 'status', /closed; it can be deleted only while open/);
    const reader = await org.key(['hr:read']);
    const forbidden = await server.rest('DELETE', `/v1/hr/attendance/${closed.body.id}`, { key: reader });
    expect(forbidden.status).toBe(403);
  });

  it("files a night shift under the day it started in the organization's time zone", async () => {
    const employee = await hire();
    // 00:30 in Berlin on 3 March is 23:30 UTC on 2 March.
    const shift = await clockIn({ employeeId: employee.id, clockIn: '2026-03-03T00:30:00+01:00' });
    expect(shift.status, shift.text).toBe(201);
    const onDay = async (day: string) => {
      const res = await server.rest('GET', `/v1/hr/attendance?employeeId=${employee.id}&from=${day}&to=${day}`, {
        key,
      });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as { id: string }[]).map((record) => record.id);
    };
    expect(await onDay('2026-03-02')).toEqual([shift.body.id]); // UTC's day
    await setTimeZone('Europe/Berlin');
    try {
      expect(await onDay('2026-03-02')).toEqual([]);
      expect(await onDay('2026-03-03')).toEqual([shift.body.id]);
    } finally {
      await setTimeZone('UTC');
    }
  });
});
