// Attendance, declared once (see kit/resource.ts): a create clocks in, the
// clock-out action closes the record, a PUT corrects either time, and an open
// record may be deleted (a mistaken clock-in). Particular to it: only an active
// employee without an open record clocks in (the employee's row is locked, so
// two concurrent clock-ins cannot both pass), on a day of their employment (the
// organization's calendar), not more than 5 minutes ahead; clockOut comes after
// clockIn and at most 24 hours later; the service computes minutesWorked, and
// an employee's records never overlap (overlap.ts).
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import { isoTimestamp } from '../../kit/fields.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { organizationDate } from '../calendar/today.js';
import { employedThroughout } from '../employee/employments.js';
import { employees } from '../employee/index.js';
import { attendanceInput, attendanceList, clockOutInput } from './input.js';
import { lockEmployee, refuseOverlap } from './overlap.js';
import { Attendance } from './type.js';

/** A clock a little ahead of the server's is not a mistake; a time further ahead is. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
const LONGEST_RECORD_MS = 24 * 3_600_000;

const invalid = (message: string) => invalidField('clockOut', message);

/** clockOut after clockIn (both ISO strings) and at most 24 hours later, and the whole minutes between. */
function minutesWorked(clockIn: string, clockOut: string): number {
  const worked = Date.parse(clockOut) - Date.parse(clockIn);
  if (!(worked > 0)) throw invalid('must be after clockIn');
  if (worked > LONGEST_RECORD_MS) throw invalid('must be at most 24 hours after clockIn');
  return Math.floor(worked / 60_000);
}

/** The transaction's time as the API writes timestamps (the same now() a clock-in defaults to). */
async function transactionTime(rules: RuleContext): Promise<string> {
  const [row] = await rules.query<{ now: string }>(`select ${isoTimestamp('now()')} as now`, []);
  return row!.now;
}

/** 400 naming `field` when `at` is more than 5 minutes after the transaction's time. */
async function refuseFuture(rules: RuleContext, at: string, field: 'clockIn' | 'clockOut'): Promise<void> {
  if (Date.parse(at) > Date.parse(await transactionTime(rules)) + FUTURE_TOLERANCE_MS) {
    throw invalidField(field, 'must not be more than 5 minutes in the future');
  }
}

/** 409 naming clockIn unless the employee is employed on its day (the organization's calendar). */
async function refuseOutsideEmployment(rules: RuleContext, employeeId: unknown, clockIn: string): Promise<void> {
  const day = await organizationDate(rules, clockIn);
  if (!(await employedThroughout(rules, employeeId, day, day))) {
    throw new DomainError('CONFLICT', `The employee is not employed on ${day}`, 'clockIn');
  }
}

/** Clocking in (the create) and clocking out (an action) raise the same event. */
const logged = event(
  'attendance.logged',
  'An employee clocked in (POST /hr/attendance) or out (POST /hr/attendance/:id/clock-out).',
);

export const attendance = defineResource({
  type: Attendance,
  idPrefix: 'att',
  area: AREAS.hr,
  path: 'attendance',
  names: { one: 'attendanceRecord', many: 'attendance' },
  input: attendanceInput,
  list: attendanceList,
  references: {
    employeeId: {
      target: employees,
      onDelete: 'cascade',
      inverse: { description: "The employee's attendance records, oldest first." },
    },
  },
  operations: { delete: true },
  events: {
    created: logged,
    updated: event('attendance.updated', 'An attendance record was corrected (PUT /hr/attendance/:id).'),
    deleted: event('attendance.deleted', 'An open attendance record was deleted (DELETE /hr/attendance/:id).'),
  },
  lifecycle: {
    field: 'status',
    initial: 'open',
    // Corrections: clockIn while open, either time once closed.
    editableIn: ['open', 'closed'],
    // A mistaken clock-in is removed; a closed record is history (corrected, not deleted).
    deletableIn: ['open'],
    actions: {
      clockOut: {
        from: ['open'],
        to: 'closed',
        description: 'Closes the record at `clockOut` (default now; after clockIn) and sets `minutesWorked`.',
        input: clockOutInput,
        sets: async ({ clockOut }, record, rules) => {
          const at = clockOut ?? (await transactionTime(rules));
          if (clockOut) await refuseFuture(rules, clockOut, 'clockOut');
          const minutes = minutesWorked(record.clockIn, at);
          await lockEmployee(rules, record.employeeId);
          await refuseOverlap(rules, { ...record, from: record.clockIn, to: at }, 'clockOut');
          return { clockOut: at, minutesWorked: minutes };
        },
        event: logged,
      },
    },
  },
  rules: {
    check({ status, clockOut }) {
      if (status === 'open' && clockOut != null) {
        throw invalid('an open record is closed by POST /v1/hr/attendance/:id/clock-out');
      }
      if (status === 'closed' && clockOut === null) throw invalid('cannot be cleared on a closed record');
    },
    async create({ employeeId, clockIn }, rules) {
      if (typeof clockIn === 'string') await refuseFuture(rules, clockIn, 'clockIn');
      // Locked until commit: a concurrent clock-in (or terminate) of this employee waits for this one.
      const employee = await lockEmployee(rules, employeeId);
      if (!employee) return; // the insert's reference check answers 400 naming employeeId
      if (employee.status !== 'active') {
        throw new DomainError(
          'CONFLICT',
          `Employee is ${employee.status}; only an active employee clocks in`,
          'employeeId',
        );
      }
      const [open] = await rules.query<{ id: string }>(
        `select id from "Attendance" where "employeeId" = $1 and "organizationId" = $2 and status = 'open' limit 1`,
        [employeeId, rules.organizationId],
      );
      if (open) {
        throw new DomainError('CONFLICT', `Employee is clocked in already (${open.id}); clock out first`, 'employeeId');
      }
      const from = typeof clockIn === 'string' ? clockIn : await transactionTime(rules); // else the default, NOW
      await refuseOutsideEmployment(rules, employeeId, from);
      await refuseOverlap(rules, { employeeId, from }, 'clockIn');
    },
    async update({ before, changes }, rules) {
      const field = 'clockIn' in changes ? 'clockIn' : 'clockOut' in changes ? 'clockOut' : undefined;
      if (!field) return;
      const record = { ...before, ...changes } as Attendance;
      if ('clockIn' in changes) await refuseFuture(rules, record.clockIn, 'clockIn');
      if ('clockOut' in changes && record.clockOut) await refuseFuture(rules, record.clockOut, 'clockOut');
      await lockEmployee(rules, record.employeeId);
      if ('clockIn' in changes) await refuseOutsideEmployment(rules, record.employeeId, record.clockIn);
      if (record.status !== 'closed') return refuseOverlap(rules, { ...record, from: record.clockIn }, 'clockIn');
      const minutes = minutesWorked(record.clockIn, record.clockOut!);
      await refuseOverlap(rules, { ...record, from: record.clockIn, to: record.clockOut }, field);
      return minutes === before.minutesWorked ? {} : { minutesWorked: minutes };
    },
  },
  descriptions: {
    create: 'Clocks the employee in at `clockIn` (default now). Emits `attendance.logged`.',
    update: 'Corrects clockIn, or the clockOut of a closed record (minutesWorked follows). Emits `attendance.updated`.',
    delete: 'Removes an open record (a mistaken clock-in); a closed one is 409. Emits `attendance.deleted`.',
  },
  examples: {
    create: () => ({}), // clocks in now
    update: { clockIn: '2026-01-05T08:00:00.000Z' },
    actions: { clockOut: {} }, // clocks out now (a time is at most 5 minutes ahead, 24 hours after clockIn)
  },
});
