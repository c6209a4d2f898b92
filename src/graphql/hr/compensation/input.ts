// Compensation input and list arguments.
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineInput, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate, currency, minorUnits, text } from '../../kit/values.js';

export const compensationInput = defineInput('Compensation', {
  employeeId: required(z.string('must be an employee id'), {
    createOnly: true,
    description: 'An employee of the organization; fixed once recorded.',
  }),
  salary: required(minorUnits, { graphql: () => GraphQLSafeInt, description: 'Integer minor units per year.' }),
  currency: required(currency, { description: 'ISO 4217 code of the salary.' }),
  effectiveFrom: required(calendarDate, {
    description: 'YYYY-MM-DD: the first day it is in effect; another record of the employee on that day is a 409.',
  }),
});

export const compensationList = defineList('Compensation', {
  sort: ['createdAt', 'updatedAt', 'effectiveFrom'],
  filters: {
    employeeId: filter(text(100), {
      description: "The employee's records.",
      where: (p) => `"Compensation"."employeeId" = ${p}`,
    }),
  },
});
