// Payroll run input and list arguments.
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate } from '../../kit/values.js';
import { PAYROLL_RUN_STATUSES } from './type.js';

// The period is create-only: the items are computed from it once (a new period is a new run).
export const payrollRunInput = defineInput('PayrollRun', {
  periodStart: required(calendarDate, { createOnly: true, description: 'First day, YYYY-MM-DD.' }),
  periodEnd: required(calendarDate, {
    createOnly: true,
    description: 'Last day (inclusive), YYYY-MM-DD; not before periodStart, at most 366 days in all.',
  }),
  payDate: optional(calendarDate, {
    description: 'YYYY-MM-DD, not before periodStart; default periodEnd (null in an update resets it to periodEnd).',
  }),
});

const status = z.enum(PAYROLL_RUN_STATUSES, { message: `must be one of ${PAYROLL_RUN_STATUSES.join(', ')}` });

export const payrollRunList = defineList('PayrollRun', {
  sort: ['createdAt', 'updatedAt', 'periodStart', 'periodEnd', 'payDate'],
  filters: {
    status: filter(status, { description: 'Runs with this status.', where: (p) => `"PayrollRun".status = ${p}` }),
  },
});
