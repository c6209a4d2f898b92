// Attendance input (clock-in, and corrections), list arguments and the clock-out action's input.
import { z } from 'zod';
import { defineActionInput, defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { NOW } from '../../kit/store.js';
import { calendarDate, text } from '../../kit/values.js';
import { ATTENDANCE_STATUSES } from './type.js';

// With an offset or in UTC (Z); stored, and answered, in UTC.
const instant = z.iso.datetime({
  offset: true,
  message: 'must be an ISO 8601 timestamp with Z or an offset, e.g. 2026-01-02T09:00:00Z or 2026-01-02T10:00:00+01:00',
});

export const attendanceInput = defineInput('Attendance', {
  employeeId: required(z.string('must be an employee id'), {
    createOnly: true,
    description: 'An active employee of the organization without an open record.',
  }),
  clockIn: optional(instant, {
    default: NOW,
    description: 'ISO 8601 with Z or an offset (stored in UTC); default now; at most 5 minutes ahead.',
  }),
  clockOut: optional(instant, {
    updateOnly: true,
    description:
      'A correction of a closed record; after clockIn, at most 24 hours later. The clock-out action sets it first.',
  }),
});

export const clockOutInput = defineActionInput('Attendance', 'clockOut', {
  clockOut: optional(instant, {
    description: 'ISO 8601 with Z or an offset; after clockIn, at most 24 hours later; default now.',
  }),
});

/**
 * The midnight starting a calendar date (parameter `p`, plus `days`) in the
 * organization's time zone ($1 of a list's conditions is the organization).
 */
const organizationDay = (p: string, days = 0) =>
  `((${p}::date + ${days})::timestamp at time zone (select "timeZone" from "Organization" where id = $1))`;

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
      description: "Clocked in on this day (YYYY-MM-DD, in the organization's time zone) or later.",
      where: (p) => `"Attendance"."clockIn" >= ${organizationDay(p)}`,
    }),
    to: filter(calendarDate, {
      description: "Clocked in on this day (YYYY-MM-DD, in the organization's time zone) or earlier.",
      where: (p) => `"Attendance"."clockIn" < ${organizationDay(p, 1)}`,
    }),
  },
});
