// Pay component input and list arguments.
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate, minorUnits, text } from '../../kit/values.js';
import { PAY_COMPONENT_KINDS } from './type.js';

const kind = z.enum(PAY_COMPONENT_KINDS, { message: `must be one of ${PAY_COMPONENT_KINDS.join(', ')}` });

export const PAY_COMPONENT_CODE = /^[a-z][a-z0-9_]{0,39}$/;

const code = z
  .string('must be a string')
  .regex(PAY_COMPONENT_CODE, 'must be lower snake case: a letter, then letters, digits or _, at most 40');

/** Greater than 0, at most 100, with at most two decimals (as written: 2.5, 12.75). */
const percentage = z
  .number('must be a number')
  .gt(0, 'must be more than 0')
  .max(100, 'must be at most 100')
  .refine((value) => /^\d+(\.\d{1,2})?$/.test(String(value)), 'must have at most 2 decimals');

export const payComponentInput = defineInput('PayComponent', {
  employeeId: required(z.string('must be an employee id'), {
    createOnly: true,
    description: 'An employee of the organization; fixed once created.',
  }),
  kind: required(kind),
  code: required(code, { description: 'Lower snake case, at most 40 (pension, meal_allowance).' }),
  description: required(text(200), { description: 'What the payslip line says.' }),
  amount: optional(minorUnits, {
    graphql: () => GraphQLSafeInt,
    description: 'A fixed amount per month, integer minor units of the currency of the pay. Either this or percentage.',
  }),
  percentage: optional(percentage, {
    description:
      'Percent of gross, e.g. 5 or 2.5 (at most 2 decimals, more than 0, at most 100). Either this or amount.',
  }),
  from: required(calendarDate, { description: 'The first day it applies, YYYY-MM-DD.' }),
  to: optional(calendarDate, { description: 'The last day it applies, YYYY-MM-DD; not before from. None: open.' }),
});

export const payComponentList = defineList('PayComponent', {
  sort: ['createdAt', 'updatedAt', 'from', 'to', 'code'],
  filters: {
    employeeId: filter(text(100), {
      description: "The employee's components.",
      where: (p) => `"PayComponent"."employeeId" = ${p}`,
    }),
    kind: filter(kind, { description: 'Earnings or deductions.', where: (p) => `"PayComponent".kind = ${p}` }),
  },
});
