// Leave request input, list arguments and the reject action's input.
import { z } from 'zod';
import { defineActionInput, defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate, text } from '../../kit/values.js';
import { LEAVE_STATUSES, LEAVE_TYPES } from './type.js';

const leaveType = z.enum(LEAVE_TYPES, { message: `must be one of ${LEAVE_TYPES.join(', ')}` });
const status = z.enum(LEAVE_STATUSES, { message: `must be one of ${LEAVE_STATUSES.join(', ')}` });

export const leaveRequestInput = defineInput('LeaveRequest', {
  employeeId: required(z.string('must be an employee id'), {
    createOnly: true,
    description: 'An employee of the organization.',
  }),
  type: required(leaveType),
  from: required(calendarDate, { description: 'The first day off, YYYY-MM-DD.' }),
  to: required(calendarDate, { description: 'The last day off, YYYY-MM-DD; not before from.' }),
  reason: optional(text(1000)),
});

export const rejectInput = defineActionInput('LeaveRequest', 'reject', {
  reason: optional(text(1000), { description: 'Why; stored as rejectionReason.' }),
});

export const leaveRequestList = defineList('LeaveRequest', {
  sort: ['createdAt', 'updatedAt', 'from', 'to', 'status'],
  filters: {
    employeeId: filter(text(100), {
      description: 'Requests of this employee.',
      where: (p) => `"LeaveRequest"."employeeId" = ${p}`,
    }),
    status: filter(status, { description: 'Requests in this status.', where: (p) => `"LeaveRequest".status = ${p}` }),
    type: filter(leaveType, {
      description: 'Requests of this type of leave.',
      where: (p) => `"LeaveRequest".type = ${p}`,
    }),
    from: filter(calendarDate, {
      description: 'Requests overlapping the range that starts on this day (their `to` is on or after it).',
      where: (p) => `"LeaveRequest"."to" >= ${p}::date`,
    }),
    to: filter(calendarDate, {
      description: 'Requests overlapping the range that ends on this day (their `from` is on or before it).',
      where: (p) => `"LeaveRequest"."from" <= ${p}::date`,
    }),
  },
});
