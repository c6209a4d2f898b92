// Time off as an HR officer uses it, over REST and GraphQL, with every figure
// worked out on a calendar in the test: holidays; a leave request's working
// `days` (the working week less the holidays: counted when requested, when its
// dates change and again when approved); leave on no working day (400 naming
// from); leave outside the employment (409 naming from or to); approved leave
// overlapping attendance (`conflicts`, in the organization's time zone); leave
// policies; the balances (proration of a joiner, monthly accrual, carry-over, a
// request over New Year) and approvals held to them (409 naming days, unless
// the policy allows a negative balance).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function expectError(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, ...(field && { field }) });
}

/** An organization and its admin key, with helpers bound to them. */
async function office(name: string) {
  const org: TestOrg = await server.org(name);
  const key = await org.key(['admin']);
  let n = 0;
  const send = async (method: string, at: string, body?: unknown) => server.rest(method, `/v1${at}`, { key, body });
  const ok = async (method: string, at: string, body?: unknown, status = method === 'POST' ? 201 : 200) => {
    const res = await send(method, at, body);
    expect(res.status, `${method} ${at}: ${res.text}`).toBe(status);
    return res.body as Body;
  };
  return {
    org,
    key,
    send,
    ok,
    hire: (startDate?: string) =>
      ok('POST', '/hr/employees', {
        firstName: 'Ada',
        lastName: `Leave ${++n}`,
        email: `${name.toLowerCase().replace(/\W/g, '')}-${n}@example.test`,
        ...(startDate && { startDate }),
      }),
    leave: (body: Body) => send('POST', '/hr/leave-requests', { type: 'vacation', ...body }),
    act: (id: string, action: string, body?: unknown) => send('POST', `/hr/leave-requests/${id}/${action}`, body),
    /** Every event about this record, oldest first. */
    async eventsOf(id: string): Promise<Body[]> {
      const events: Body[] = [];
      for (let page = 1; ; page++) {
        const res = await send('GET', `/events?limit=100&page=${page}`);
        events.push(...res.body.data.filter((event: Body) => event.data.object.id === id));
        if (page >= res.body.pagination.pages) return events;
      }
    },
  };
}
type Office = Awaited<ReturnType<typeof office>>;

describe('/v1/hr/holidays', () => {
  let hr: Office;
  beforeAll(async () => {
    hr = await office('Holidays');
  });

  it('adds, renames, lists and deletes holidays, each with its event; a date is taken once (409 naming date)', async () => {
    const christmas = await hr.ok('POST', '/hr/holidays', { date: '2026-12-25', name: 'Christmas Day' });
    expect(christmas).toEqual({
      id: expect.stringMatching(/^hol_[0-9a-z]{26}$/),
      date: '2026-12-25',
      name: 'Christmas Day',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const boxing = await hr.ok('POST', '/hr/holidays', { date: '2026-12-26', name: 'Boxing Day' });
    const newYear = await hr.ok('POST', '/hr/holidays', { date: '2027-01-01', name: "New Year's Day" });

    const taken = await hr.send('POST', '/hr/holidays', { date: '2026-12-25', name: 'Again' });
    expectError(taken, 409, 'CONFLICT', 'date');
    expectError(await hr.send('PUT', `/hr/holidays/${boxing.id}`, { date: '2026-12-25' }), 409, 'CONFLICT', 'date');
    expectError(
      await hr.send('POST', '/hr/holidays', { date: '2026-02-30', name: 'No' }),
      400,
      'VALIDATION_ERROR',
      'date',
    );
    expectError(await hr.send('POST', '/hr/holidays', { date: '2026-12-31' }), 400, 'VALIDATION_ERROR', 'name');

    const renamed = await hr.ok('PUT', `/hr/holidays/${christmas.id}`, { name: 'Christmas' });
    const list = async (query: string) =>
      (await hr.ok('GET', `/hr/holidays?${query}`)).data.map((holiday: Body) => holiday.date);
    expect(await list('sort=-date')).toEqual(['2027-01-01', '2026-12-26', '2026-12-25']);
    expect(await list('from=2026-12-26&to=2026-12-31')).toEqual(['2026-12-26']);
    expect(await list('from=2027-01-01')).toEqual(['2027-01-01']);

    expect((await hr.send('DELETE', `/hr/holidays/${newYear.id}`)).status).toBe(204);
    expect((await hr.send('GET', `/hr/holidays/${newYear.id}`)).status).toBe(404);
    expect((await hr.eventsOf(christmas.id)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'holiday.created', data: { object: christmas } },
      {
        type: 'holiday.updated',
        data: { object: renamed, previousAttributes: { name: 'Christmas Day', updatedAt: christmas.updatedAt } },
      },
    ]);
    expect((await hr.eventsOf(newYear.id)).map((event) => event.type)).toEqual(['holiday.created', 'holiday.deleted']);
  });
});

describe("a leave request's working days", () => {
  let hr: Office;
  let employeeId: string;
  beforeAll(async () => {
    hr = await office('Working days');
    await hr.ok('POST', '/hr/holidays', { date: '2026-12-25', name: 'Christmas Day' });
    employeeId = (await hr.hire('2020-01-06')).id;
  });

  it('counts the working week less the holidays: 24 to 28 December 2026 is Thursday 24 and Monday 28', async () => {
    const res = await hr.leave({ employeeId, from: '2026-12-24', to: '2026-12-28' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ from: '2026-12-24', to: '2026-12-28', days: 2, conflicts: [] });
    expect((await hr.ok('GET', `/hr/leave-requests/${res.body.id}`)).days).toBe(2);
  });

  it.each([
    ['a weekend', '2026-12-26', '2026-12-27'],
    ['a holiday alone', '2026-12-25', '2026-12-25'],
    ['a holiday and a weekend', '2026-12-25', '2026-12-27'],
  ])('refuses leave on no working day (%s) with a 400 naming from', async (_what, from, to) => {
    const res = await hr.leave({ employeeId, from, to });
    expectError(res, 400, 'VALIDATION_ERROR', 'from');
    expect(res.body.error.message).toContain('no working day');
  });

  it('counts again when the dates change, and refuses a move onto no working day', async () => {
    const request = (await hr.leave({ employeeId, from: '2026-12-24', to: '2026-12-28' })).body;
    const moved = await hr.ok('PUT', `/hr/leave-requests/${request.id}`, { to: '2026-12-30' });
    // Thursday 24, Monday 28, Tuesday 29, Wednesday 30.
    expect(moved.days).toBe(4);
    expect((await hr.eventsOf(request.id)).at(-1)!.data.previousAttributes).toEqual({
      to: '2026-12-28',
      days: 2,
      updatedAt: request.updatedAt,
    });
    const weekend = await hr.send('PUT', `/hr/leave-requests/${request.id}`, { from: '2026-12-26', to: '2026-12-27' });
    expectError(weekend, 400, 'VALIDATION_ERROR', 'from');
    expect(await hr.ok('GET', `/hr/leave-requests/${request.id}`)).toEqual(moved);
    // days is read-only: its own value passes in a PUT body, another is refused.
    expect((await hr.send('PUT', `/hr/leave-requests/${request.id}`, { days: 4, reason: 'Family' })).status).toBe(200);
    expectError(await hr.send('PUT', `/hr/leave-requests/${request.id}`, { days: 1 }), 400, 'VALIDATION_ERROR', 'days');
  });

  it('keeps the days counted when requested until the approval counts them again', async () => {
    // Monday 21 to Wednesday 23 December: 3 days.
    const request = (await hr.leave({ employeeId, from: '2026-12-21', to: '2026-12-23' })).body;
    expect(request.days).toBe(3);
    const closure = await hr.ok('POST', '/hr/holidays', { date: '2026-12-22', name: 'Office closed' });
    expect((await hr.ok('GET', `/hr/leave-requests/${request.id}`)).days).toBe(3);
    const approved = await hr.act(request.id, 'approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', days: 2 });
    expect((await hr.eventsOf(request.id)).at(-1)).toMatchObject({
      type: 'leave.approved',
      data: { object: approved.body, previousAttributes: { status: 'requested', days: 3 } },
    });
    // Approved, it keeps its days: removing the holiday afterwards changes nothing.
    expect((await hr.send('DELETE', `/hr/holidays/${closure.id}`)).status).toBe(204);
    expect((await hr.ok('GET', `/hr/leave-requests/${request.id}`)).days).toBe(2);
  });

  it('refuses to approve a request that a new holiday left without a working day (409 naming from)', async () => {
    const request = (await hr.leave({ employeeId, from: '2026-12-31', to: '2026-12-31' })).body;
    await hr.ok('POST', '/hr/holidays', { date: '2026-12-31', name: "New Year's Eve" });
    expectError(await hr.act(request.id, 'approve'), 409, 'CONFLICT', 'from');
    expect((await hr.act(request.id, 'cancel')).status).toBe(200);
  });

  it("follows the organization's working week: Monday to Saturday counts Saturday 26", async () => {
    const six = await office('Six days');
    await six.ok('PUT', '/organization', { workingDays: [1, 2, 3, 4, 5, 6] });
    const worker = (await six.hire()).id;
    // Thursday 24, Friday 25, Saturday 26, Monday 28 (no holidays here).
    expect((await six.leave({ employeeId: worker, from: '2026-12-24', to: '2026-12-28' })).body.days).toBe(4);
    expect((await six.leave({ employeeId: worker, from: '2026-12-26', to: '2026-12-26' })).body.days).toBe(1);
    expectError(
      await six.leave({ employeeId: worker, from: '2026-12-27', to: '2026-12-27' }),
      400,
      'VALIDATION_ERROR',
      'from',
    );
  });

  it("the migration gives existing requests their days from the organization's working week", async () => {
    const migrations = path.resolve(import.meta.dirname, '../prisma/migrations');
    const sql = readFileSync(path.join(migrations, '20261127231000_time_off/migration.sql'), 'utf8');
    const backfill = /UPDATE "LeaveRequest" l SET "days"[^;]+;/.exec(sql)?.[0];
    expect(backfill).toBeDefined();
    const sundays = await office('Backfill');
    await sundays.ok('PUT', '/organization', { workingDays: [7, 1, 2, 3, 4] });
    const worker = (await sundays.hire()).id;
    const a = (await sundays.leave({ employeeId: worker, from: '2026-12-24', to: '2026-12-28' })).body;
    const b = (await sundays.leave({ employeeId: worker, from: '2026-12-17', to: '2026-12-17' })).body;
    await server.prisma.$executeRawUnsafe(`update "LeaveRequest" set days = -1 where id in ('${a.id}', '${b.id}')`);
    await server.prisma.$executeRawUnsafe(backfill!.replace(/;$/, ` WHERE l.id in ('${a.id}', '${b.id}')`));
    // Sunday to Thursday: Thursday 24, Sunday 27, Monday 28; Thursday 17.
    expect((await sundays.ok('GET', `/hr/leave-requests/${a.id}`)).days).toBe(3);
    expect((await sundays.ok('GET', `/hr/leave-requests/${b.id}`)).days).toBe(1);
  });
});

describe('leave within the employment', () => {
  it('refuses leave before the start, after the end and between periods (409 naming from or to)', async () => {
    const hr = await office('Employment');
    const employee = await hr.hire('2026-07-01');
    const id = employee.id as string;

    const early = await hr.leave({ employeeId: id, from: '2026-06-29', to: '2026-07-02' });
    expectError(early, 409, 'CONFLICT', 'from');
    expect(early.body.error.message).toContain('2026-07-01');
    const first = await hr.leave({ employeeId: id, from: '2026-07-01', to: '2026-07-02' });
    expect(first.status, first.text).toBe(201);
    expectError(
      await hr.send('PUT', `/hr/leave-requests/${first.body.id}`, { from: '2026-06-30' }),
      409,
      'CONFLICT',
      'from',
    );

    await hr.ok('POST', `/hr/employees/${id}/terminate`, { endDate: '2026-09-30' }, 200);
    expectError(await hr.leave({ employeeId: id, from: '2026-09-28', to: '2026-10-02' }), 409, 'CONFLICT', 'to');
    const after = await hr.leave({ employeeId: id, from: '2026-10-05', to: '2026-10-09' });
    expectError(after, 409, 'CONFLICT', 'from');
    expect(after.body.error.message).toContain('terminated on 2026-09-30');

    // Back from 2 November: the gap between the periods is outside the employment too.
    await hr.ok('POST', `/hr/employees/${id}/reinstate`, { startDate: '2026-11-02' }, 200);
    expectError(await hr.leave({ employeeId: id, from: '2026-10-12', to: '2026-10-13' }), 409, 'CONFLICT', 'from');
    expectError(await hr.leave({ employeeId: id, from: '2026-09-29', to: '2026-11-03' }), 409, 'CONFLICT', 'to');
    const back = await hr.leave({ employeeId: id, from: '2026-11-02', to: '2026-11-03' });
    expect(back.status, back.text).toBe(201);
    expect((await hr.act(back.body.id, 'approve')).status).toBe(200);
    expect((await hr.act(first.body.id, 'approve')).status).toBe(200);
  });
});

describe('approved leave that overlaps attendance', () => {
  it("is flagged in conflicts, by the day of the clock-in in the organization's time zone, when read", async () => {
    const hr = await office('Conflicts');
    await hr.ok('PUT', '/organization', { timeZone: 'America/New_York' });
    const employeeId = (await hr.hire('2026-01-05')).id;
    const clock = async (clockIn: string, clockOut: string) => {
      const record = await hr.ok('POST', '/hr/attendance', { employeeId, clockIn });
      await hr.ok('POST', `/hr/attendance/${record.id}/clock-out`, { clockOut }, 200);
      return record.id as string;
    };
    // 03:30 UTC on Tuesday 10 March is 23:30 on Monday 9 March in New York (EDT, UTC-4).
    const lateMonday = await clock('2026-03-10T03:30:00.000Z', '2026-03-10T05:00:00.000Z');
    const wednesday = await clock('2026-03-11T13:00:00.000Z', '2026-03-11T21:00:00.000Z');

    const request = (await hr.leave({ employeeId, from: '2026-03-10', to: '2026-03-11' })).body;
    expect(request).toMatchObject({ days: 2, conflicts: [] }); // not approved: nothing flagged
    const approved = await hr.act(request.id, 'approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.conflicts).toEqual([{ date: '2026-03-11', attendanceId: wednesday }]);
    expect((await hr.eventsOf(request.id)).at(-1)!.data.object.conflicts).toEqual(approved.body.conflicts);

    // Read, not stored: a clock-in recorded later shows, and so does a change of time zone.
    const tuesday = await clock('2026-03-10T14:00:00.000Z', '2026-03-10T15:00:00.000Z');
    const get = async () => (await hr.ok('GET', `/hr/leave-requests/${request.id}`)).conflicts;
    expect(await get()).toEqual([
      { date: '2026-03-10', attendanceId: tuesday },
      { date: '2026-03-11', attendanceId: wednesday },
    ]);
    await hr.ok('PUT', '/organization', { timeZone: 'UTC' });
    expect(await get()).toEqual([
      { date: '2026-03-10', attendanceId: lateMonday },
      { date: '2026-03-10', attendanceId: tuesday },
      { date: '2026-03-11', attendanceId: wednesday },
    ]);
    const listed = await hr.ok('GET', `/hr/leave-requests?employeeId=${employeeId}`);
    expect(listed.data[0].conflicts).toHaveLength(3);
    expect((await hr.act(request.id, 'cancel')).body.conflicts).toEqual([]);
  });
});

describe('/v1/hr/leave-policies', () => {
  let hr: Office;
  beforeAll(async () => {
    hr = await office('Policies');
  });

  it('takes one policy per type (409 naming type), or per type and first year, with defaults', async () => {
    const vacation = await hr.ok('POST', '/hr/leave-policies', { type: 'vacation', daysPerYear: 20 });
    expect(vacation).toEqual({
      id: expect.stringMatching(/^lvp_[0-9a-z]{26}$/),
      type: 'vacation',
      fromYear: null,
      daysPerYear: 20,
      accrual: 'yearly',
      carryOverDays: 0,
      allowNegative: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const again = await hr.send('POST', '/hr/leave-policies', { type: 'vacation', daysPerYear: 25 });
    expectError(again, 409, 'CONFLICT', 'type');
    const later = await hr.ok('POST', '/hr/leave-policies', { type: 'vacation', fromYear: 2027, daysPerYear: 25 });
    expectError(
      await hr.send('POST', '/hr/leave-policies', { type: 'vacation', fromYear: 2027, daysPerYear: 30 }),
      409,
      'CONFLICT',
      'type',
    );
    expectError(await hr.send('PUT', `/hr/leave-policies/${later.id}`, { fromYear: null }), 409, 'CONFLICT', 'type');
    const sick = await hr.ok('POST', '/hr/leave-policies', { type: 'sick', daysPerYear: 10, accrual: 'monthly' });
    const updated = await hr.ok('PUT', `/hr/leave-policies/${sick.id}`, { carryOverDays: 5, allowNegative: true });
    expect(updated).toMatchObject({
      type: 'sick',
      daysPerYear: 10,
      accrual: 'monthly',
      carryOverDays: 5,
      allowNegative: true,
    });
    expect((await hr.eventsOf(sick.id)).map((event) => event.type)).toEqual([
      'leave_policy.created',
      'leave_policy.updated',
    ]);
    expect((await hr.send('DELETE', `/hr/leave-policies/${later.id}`)).status).toBe(204);
    expect((await hr.eventsOf(later.id)).map((event) => event.type)).toEqual([
      'leave_policy.created',
      'leave_policy.deleted',
    ]);
  });

  it.each([
    ['type', { type: 'unpaid', daysPerYear: 5 }],
    ['type', { type: 'holiday', daysPerYear: 5 }],
    ['daysPerYear', { type: 'personal', daysPerYear: -1 }],
    ['daysPerYear', { type: 'personal', daysPerYear: 2.5 }],
    ['daysPerYear', { type: 'personal' }],
    ['accrual', { type: 'personal', daysPerYear: 5, accrual: 'weekly' }],
    ['carryOverDays', { type: 'personal', daysPerYear: 5, carryOverDays: 400 }],
    ['fromYear', { type: 'personal', daysPerYear: 5, fromYear: 26 }],
  ])('refuses a bad %s with a 400 naming it', async (field, body) => {
    expectError(await hr.send('POST', '/hr/leave-policies', body), 400, 'VALIDATION_ERROR', field);
  });

  it('lets exactly one of concurrent creates of one type pass', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => hr.send('POST', '/hr/leave-policies', { type: 'other', daysPerYear: 3 })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});

describe('leave balances', () => {
  let hr: Office;
  let vacation: Body;
  const balances = async (employeeId: string, date?: string, key = hr.key) => {
    const res = await server.rest(
      'GET',
      `/v1/hr/employees/${employeeId}/leave-balances${date ? `?date=${date}` : ''}`,
      {
        key,
      },
    );
    expect(res.status, res.text).toBe(200);
    return res.body.data as Body[];
  };
  const balance = async (employeeId: string, type: string, date: string) =>
    (await balances(employeeId, date)).find((row) => row.type === type);
  const approve = async (employeeId: string, type: string, from: string, to: string) => {
    const request = await hr.leave({ employeeId, type, from, to });
    expect(request.status, request.text).toBe(201);
    const res = await hr.act(request.body.id, 'approve');
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    hr = await office('Balances');
    vacation = await hr.ok('POST', '/hr/leave-policies', { type: 'vacation', daysPerYear: 20 });
    await hr.ok('POST', '/hr/leave-policies', { type: 'sick', daysPerYear: 12, accrual: 'monthly' });
    await hr.ok('POST', '/hr/leave-policies', { type: 'personal', daysPerYear: 10, carryOverDays: 3 });
    await hr.ok('POST', '/hr/holidays', { date: '2027-01-01', name: "New Year's Day" });
  });

  it('prorates a joiner on 1 July; counts approved as taken and pending as requested; holds approvals to it', async () => {
    const joiner = (await hr.hire('2026-07-01')).id;
    // 184 of 365 days: vacation 20 × 184 / 365 = 10.08 → 10; personal 10 × 184 / 365 = 5.04 → 5;
    // sick accrues 1 a month: July to November by 27 November → 5.
    expect(await balances(joiner, '2026-11-27')).toEqual([
      {
        type: 'vacation',
        year: 2026,
        entitledDays: 10,
        carriedOverDays: 0,
        takenDays: 0,
        requestedDays: 0,
        remainingDays: 10,
      },
      {
        type: 'sick',
        year: 2026,
        entitledDays: 5,
        carriedOverDays: 0,
        takenDays: 0,
        requestedDays: 0,
        remainingDays: 5,
      },
      {
        type: 'personal',
        year: 2026,
        entitledDays: 5,
        carriedOverDays: 0,
        takenDays: 0,
        requestedDays: 0,
        remainingDays: 5,
      },
    ]);

    await approve(joiner, 'vacation', '2026-07-06', '2026-07-10'); // Monday to Friday: 5
    const pending = await hr.leave({ employeeId: joiner, from: '2026-08-03', to: '2026-08-04' }); // 2
    expect(pending.status).toBe(201);
    expect(await balance(joiner, 'vacation', '2026-11-27')).toEqual({
      type: 'vacation',
      year: 2026,
      entitledDays: 10,
      carriedOverDays: 0,
      takenDays: 5,
      requestedDays: 2,
      remainingDays: 5,
    });

    // Two weeks (10 days) with 5 left: refused, naming days.
    const big = (await hr.leave({ employeeId: joiner, from: '2026-09-07', to: '2026-09-18' })).body;
    expect(big.days).toBe(10);
    const refused = await hr.act(big.id, 'approve');
    expectError(refused, 409, 'CONFLICT', 'days');
    expect(refused.body.error.message).toContain('5 remain');
    expect((await hr.ok('GET', `/hr/leave-requests/${big.id}`)).status).toBe('requested');
    // The pending 2 days still fit.
    expect((await hr.act(pending.body.id, 'approve')).status).toBe(200);

    // A policy that allows a negative balance lets it through.
    await hr.ok('PUT', `/hr/leave-policies/${vacation.id}`, { allowNegative: true });
    expect((await hr.act(big.id, 'approve')).status).toBe(200);
    expect(await balance(joiner, 'vacation', '2026-11-27')).toMatchObject({ takenDays: 17, remainingDays: -7 });
    await hr.ok('PUT', `/hr/leave-policies/${vacation.id}`, { allowNegative: false });
  });

  it('accrues monthly: a twelfth for each month begun, as of the date asked about or the leave approved', async () => {
    const staff = (await hr.hire('2020-01-06')).id;
    expect(await balance(staff, 'sick', '2026-03-15')).toMatchObject({ entitledDays: 3, remainingDays: 3 });
    // Monday 4 to Friday 8 May: 5 days, as many as January to May accrue.
    await approve(staff, 'sick', '2026-05-04', '2026-05-08');
    const monday = (await hr.leave({ employeeId: staff, type: 'sick', from: '2026-05-11', to: '2026-05-11' })).body;
    expectError(await hr.act(monday.id, 'approve'), 409, 'CONFLICT', 'days');
    // In June a sixth day has accrued.
    await approve(staff, 'sick', '2026-06-01', '2026-06-01');
    expect(await balance(staff, 'sick', '2026-12-31')).toMatchObject({
      entitledDays: 12,
      takenDays: 6,
      remainingDays: 6,
    });
  });

  it('carries the unused days of the year before into the next, up to carryOverDays', async () => {
    const veteran = (await hr.hire('2025-01-01')).id;
    await approve(veteran, 'personal', '2025-03-03', '2025-03-07'); // Monday to Friday: 5 of 10
    expect(await balance(veteran, 'personal', '2025-12-31')).toEqual({
      type: 'personal',
      year: 2025,
      entitledDays: 10,
      carriedOverDays: 0,
      takenDays: 5,
      requestedDays: 0,
      remainingDays: 5,
    });
    // 5 unused, 3 carry: 10 + 3.
    expect(await balance(veteran, 'personal', '2026-06-01')).toEqual({
      type: 'personal',
      year: 2026,
      entitledDays: 13,
      carriedOverDays: 3,
      takenDays: 0,
      requestedDays: 0,
      remainingDays: 13,
    });
    // Vacation carries nothing (carryOverDays 0).
    expect(await balance(veteran, 'vacation', '2026-06-01')).toMatchObject({ entitledDays: 20, carriedOverDays: 0 });
  });

  it('splits a request over New Year between the years, and applies the policy of each year', async () => {
    const staff = (await hr.hire('2020-01-06')).id;
    // Monday 28 to Thursday 31 December: 4; Friday 1 January a holiday; Monday 4 and Tuesday 5: 2.
    const request = await approve(staff, 'vacation', '2026-12-28', '2027-01-05');
    expect(request.days).toBe(6);
    expect(await balance(staff, 'vacation', '2026-12-31')).toMatchObject({
      year: 2026,
      takenDays: 4,
      remainingDays: 16,
    });
    expect(await balance(staff, 'vacation', '2027-01-10')).toMatchObject({
      year: 2027,
      entitledDays: 20,
      takenDays: 2,
    });
    // From 2027, 25 days a year.
    await hr.ok('POST', '/hr/leave-policies', { type: 'vacation', fromYear: 2027, daysPerYear: 25 });
    expect(await balance(staff, 'vacation', '2027-01-10')).toMatchObject({ entitledDays: 25, remainingDays: 23 });
    expect(await balance(staff, 'vacation', '2026-12-31')).toMatchObject({ entitledDays: 20 });
  });

  it('does not limit a type without a policy, nor unpaid leave: they have no balance', async () => {
    const staff = (await hr.hire('2020-01-06')).id;
    const other = await approve(staff, 'other', '2026-02-02', '2026-03-27'); // eight weeks
    expect(other.days).toBe(40);
    await approve(staff, 'unpaid', '2026-04-06', '2026-04-30');
    expect((await balances(staff, '2026-06-01')).map((row) => row.type)).toEqual(['vacation', 'sick', 'personal']);
  });

  it('is read with hr:read: 403 without it, 404 for no such employee, 400 naming a bad date; today by default', async () => {
    const staff = (await hr.hire('2020-01-06')).id;
    const reader = await hr.org.key(['hr:read']);
    const today = (await balances(staff, undefined, reader)).map((row) => row.year);
    expect(today).toEqual([new Date().getUTCFullYear(), new Date().getUTCFullYear(), new Date().getUTCFullYear()]);
    const crm = await hr.org.key(['crm:read', 'hr:write']);
    expectError(await server.rest('GET', `/v1/hr/employees/${staff}/leave-balances`, { key: crm }), 403, 'FORBIDDEN');
    const foreign = (await (await office('Elsewhere')).hire()).id;
    for (const id of [foreign, `emp_${'0'.repeat(26)}`, 'nope']) {
      expectError(await hr.send('GET', `/hr/employees/${id}/leave-balances`), 404, 'NOT_FOUND');
    }
    expectError(
      await hr.send('GET', `/hr/employees/${staff}/leave-balances?date=2026-02-30`),
      400,
      'VALIDATION_ERROR',
      'date',
    );
  });

  it('answers the same over GraphQL, with LeaveRequest.days', async () => {
    const staff = (await hr.hire('2026-07-01')).id;
    await approve(staff, 'personal', '2026-07-01', '2026-07-02'); // Wednesday and Thursday
    const res = await server.gql(
      `query ($id: ID!) { leaveBalances(employeeId: $id, date: "2026-11-27") { data { type entitledDays takenDays remainingDays } }
        leaveRequests(employeeId: $id) { data { days conflicts { date attendanceId } } } }`,
      { id: staff },
      { key: hr.key },
    );
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data.leaveBalances.data).toContainEqual({
      type: 'personal',
      entitledDays: 5,
      takenDays: 2,
      remainingDays: 3,
    });
    expect(res.data.leaveRequests.data).toEqual([{ days: 2, conflicts: [] }]);
  });
});
