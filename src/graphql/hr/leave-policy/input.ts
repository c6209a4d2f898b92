// Leave policy input and list arguments.
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { ACCRUALS, POLICY_TYPES } from './type.js';

const policyType = z.enum(POLICY_TYPES, {
  message: `must be one of ${POLICY_TYPES.join(', ')} (unpaid leave has no balance)`,
});
const accrual = z.enum(ACCRUALS, { message: `must be one of ${ACCRUALS.join(', ')}` });
const wholeDays = z
  .int('must be a whole number of days')
  .min(0, 'must not be negative')
  .max(366, 'must be at most 366');

export const leavePolicyInput = defineInput('LeavePolicy', {
  type: required(policyType),
  fromYear: optional(z.int('must be a year').min(1900, 'must be 1900 or later').max(9999, 'must be 9999 or earlier'), {
    description: 'The first calendar year it applies to; omitted or null: every year (until a later policy).',
  }),
  daysPerYear: required(wholeDays, { description: 'Whole days a year (0 to 366).' }),
  accrual: optional(accrual, { default: 'yearly', description: 'yearly (default) or monthly.' }),
  carryOverDays: optional(wholeDays, {
    default: 0,
    description: 'At most this many unused days of a year carry into the next (default 0).',
  }),
  allowNegative: optional(z.boolean('must be true or false'), {
    default: false,
    description: 'Whether an approval may take the balance below zero (default false).',
  }),
});

export const leavePolicyList = defineList('LeavePolicy', {
  sort: ['createdAt', 'updatedAt', 'type', 'fromYear'],
  filters: {
    type: filter(policyType, {
      description: 'Policies of this type of leave.',
      where: (p) => `"LeavePolicy".type = ${p}`,
    }),
  },
});
