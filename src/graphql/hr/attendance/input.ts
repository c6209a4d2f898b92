// Attendance input (clock-in, and corrections), list arguments and the clock-out action's input.
import { z } from 'zod';
import { defineActionInput, defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { NOW } from '../../kit/store.js';
import { calendarDate, text } from '../../kit/values.js';
import { ATTENDANCE_STATUSES } from './type.js';

const instant = z.iso.datetime({ message: 'must be an ISO 8601 UTC timestamp, e.g. 2026-01-02T09:00:00Z' });

export const attendanceInput = defineInput('Attendance', {
  employeeId: required(z.string('must be an employee id'), {
    createOnly: true,
    description: 'An active employee of the organization without an open record.',
  }),
  clockIn: optional(instant, { default: NOW, description: 'ISO 8601 UTC; default now.' }),
  clockOut: optional(instant, {
    updateOnly: true,
    description: 'A correction of a closed record; after clockIn. The clock-out action sets it first.',
  }),
});

export const clockOutInput = defineActionInput('Attendance', 'clockOut', {
  clockOut: optional(instant, { description: 'ISO 8601 UTC, after clockIn; default now.' }),
});

/** The UTC midnight starting a calendar date (parameter `p`, plus `days`). */
const utcDay = (p: string, days = 0) => `((${p}::date + ${days})::timestamp at time zone 'UTC')`;

export const attendanceList = defineList('Attendance', {
  sort: ['createdAt', 'updatedAt', 'clockIn', 'clockOut'],
  filters: {
    status: filter(z.enum(ATTENDANCE_STATUSES, { message: `must be one of ${ATTENDANCE_STATUSES.join(', ')}` }), {
      description: 'open: clocked in, not yet out (no clockOut); closed: clocked out.',
      where: (p) => `"Attendance".status = ${p}`,
    }),
    employeeId: filter(text(100), {
      description: 'Records of this employee.',
      where: (p) => `"Attendance"."employeeId" = ${p}`,
    }),
    from: filter(calendarDate, {
      description: 'Clocked in on this day (UTC, YYYY-MM-DD) or later.',
      where: (p) => `"Attendance"."clockIn" >= ${utcDay(p)}`,
    }),
    to: filter(calendarDate, {
      description: 'Clocked in on this day (UTC, YYYY-MM-DD) or earlier.',
      where: (p) => `"Attendance"."clockIn" < ${utcDay(p, 1)}`,
    }),
  },
});
