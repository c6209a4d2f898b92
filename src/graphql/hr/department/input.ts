// Department input and list arguments (see kit/inputs.ts, kit/list.ts).
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { text } from '../../kit/values.js';

/** A short code people type: letters, digits, `-`, `_` and `.`, stored upper-case. */
const code = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(20, 'must be at most 20 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, -, _ or . (starting with a letter or digit)')
  .transform((value) => value.toUpperCase());

export const departmentInput = defineInput('Department', {
  name: required(text(100)),
  code: required(code, {
    description: 'Unique within the organization; 1 to 20 letters, digits, -, _ or .; upper-cased.',
  }),
  managerId: optional(z.string('must be an employee id'), {
    description: 'The employee who heads it: an employee of the organization.',
  }),
  parentId: optional(z.string('must be a department id'), {
    description: 'The department it is part of; not itself, nor one of its sub-departments (400).',
  }),
});

export const departmentList = defineList('Department', {
  sort: ['createdAt', 'updatedAt', 'name', 'code'],
  filters: {
    parentId: filter(text(100), {
      description: 'The sub-departments of this department.',
      where: (p) => `"Department"."parentId" = ${p}`,
    }),
    managerId: filter(text(100), {
      description: 'The departments this employee heads.',
      where: (p) => `"Department"."managerId" = ${p}`,
    }),
    q: searchFilter(
      'Department',
      [
        { name: 'name', nullable: false },
        { name: 'code', nullable: false },
      ],
      { schema: text(200), description: 'Text search over name and code.' },
    ),
  },
});
