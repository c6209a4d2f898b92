// Employee input, list arguments and the terminate action's input.
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineActionInput, defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { calendarDate, currency, email, minorUnits, phone, text } from '../../kit/values.js';
import { EMPLOYEE_STATUSES } from './type.js';

export const employeeInput = defineInput('Employee', {
  firstName: required(text(100)),
  lastName: required(text(100)),
  email: required(email, { description: 'Unique within the organization.' }),
  jobTitle: optional(text(200)),
  departmentId: optional(z.string('must be a department id'), {
    description: 'A department of the organization (`department`, its name, follows).',
  }),
  managerId: optional(z.string('must be an employee id'), {
    description: 'Another employee of the organization; not one who reports to this one.',
  }),
  startDate: optional(calendarDate, { description: 'YYYY-MM-DD.' }),
  // Kept as compensation history (hr/compensation/salary.ts), not as columns.
  salary: optional(minorUnits, {
    graphql: () => GraphQLSafeInt,
    stored: false,
    description:
      'Integer minor units per year; needs a currency. Recorded as compensation: on create effective from ' +
      "startDate, on update effective today (organization's time zone). Cannot be cleared.",
  }),
  currency: optional(currency, { stored: false, description: 'ISO 4217 code of the salary; needs a salary.' }),
  phone: optional(phone),
});

export const terminateInput = defineActionInput('Employee', 'terminate', {
  endDate: optional(calendarDate, {
    description: "The last day, YYYY-MM-DD; default today in the organization's time zone.",
  }),
});

export const reinstateInput = defineActionInput('Employee', 'reinstate', {
  startDate: optional(calendarDate, {
    description: "The first day of the new period, YYYY-MM-DD, after the last one's end; default today.",
  }),
});

const status = z.enum(EMPLOYEE_STATUSES, { message: `must be one of ${EMPLOYEE_STATUSES.join(', ')}` });

export const employeeList = defineList('Employee', {
  sort: ['createdAt', 'updatedAt', 'lastName', 'firstName', 'email', 'startDate'],
  filters: {
    status: filter(status, { description: 'Employees with this status.', where: (p) => `"Employee".status = ${p}` }),
    departmentId: filter(text(100), {
      description: 'Employees of this department (not of its sub-departments).',
      where: (p) => `"Employee"."departmentId" = ${p}`,
    }),
    department: filter(text(100), {
      description: "Employees of the department of this name (case-insensitive): the department's name, exactly.",
      where: (p) =>
        `exists (select 1 from "Department" d where d.id = "Employee"."departmentId" and lower(d.name) = lower(${p}))`,
    }),
    managerId: filter(text(100), {
      description: 'Direct reports of this employee.',
      where: (p) => `"Employee"."managerId" = ${p}`,
    }),
    q: searchFilter(
      'Employee',
      [
        { name: 'firstName', nullable: false },
        { name: 'lastName', nullable: false },
        { name: 'email', nullable: false },
        { name: 'jobTitle', nullable: true },
      ],
      { schema: text(200), description: 'Text search over names, email and job title.' },
    ),
  },
});
