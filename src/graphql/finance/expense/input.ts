// Expense input, list arguments and the reject action's input.
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineActionInput, defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate, currency, httpsUrl, minorUnits, text } from '../../kit/values.js';
import { EXPENSE_CATEGORIES, EXPENSE_STATUSES } from './type.js';

const oneOf = <V extends readonly [string, ...string[]]>(values: V) =>
  z.enum(values, { message: `must be one of ${values.join(', ')}` });

export const expenseInput = defineInput('Expense', {
  employeeId: required(z.string('must be an employee id'), { description: 'An employee of the organization.' }),
  amount: required(minorUnits.min(1, 'must be more than 0'), {
    graphql: () => GraphQLSafeInt,
    description: 'Integer minor units of currency, more than 0.',
  }),
  currency: required(currency, { description: 'ISO 4217 code.' }),
  category: required(oneOf(EXPENSE_CATEGORIES)),
  incurredOn: required(calendarDate, { description: 'YYYY-MM-DD.' }),
  description: optional(text(1000)),
  receiptUrl: optional(httpsUrl, { description: 'https only.' }),
});

export const rejectInput = defineActionInput('Expense', 'reject', {
  reason: optional(text(1000), { description: 'Why; kept as rejectionReason.' }),
});

export const expenseList = defineList('Expense', {
  sort: ['createdAt', 'updatedAt', 'incurredOn', 'amount'],
  filters: {
    status: filter(oneOf(EXPENSE_STATUSES), {
      description: 'Expenses with this status.',
      where: (p) => `"Expense".status = ${p}`,
    }),
    category: filter(oneOf(EXPENSE_CATEGORIES), {
      description: 'Expenses of this category.',
      where: (p) => `"Expense".category = ${p}`,
    }),
    employeeId: filter(text(100), {
      description: "This employee's expenses.",
      where: (p) => `"Expense"."employeeId" = ${p}`,
    }),
    from: filter(calendarDate, {
      description: 'Incurred on or after this day (YYYY-MM-DD).',
      where: (p) => `"Expense"."incurredOn" >= ${p}::date`,
    }),
    to: filter(calendarDate, {
      description: 'Incurred on or before this day (YYYY-MM-DD).',
      where: (p) => `"Expense"."incurredOn" <= ${p}::date`,
    }),
  },
});
