// An import's options (the query of POST /imports, beside the file in its body),
// the template's query and the imports list (see kit/list.ts). Which resources
// exist and what their unique keys are is known at run time (imports/importable.ts).
import { z } from 'zod';
import { IMPORT_FORMATS } from '../../../imports/records.js';
import { defineList, filter } from '../../kit/list.js';
import { booleanFlag } from '../../kit/values.js';
import { statusFilter } from '../file-job/fields.js';
import { IMPORT_MODES, IMPORT_STATUSES } from './type.js';

const resource = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .describe(
    'A declared resource that takes a create: the last segment of its REST path (contacts, deals, employees, ' +
      'invoices, …).',
  );

export const createImportSchema = z.strictObject({
  resource,
  format: z
    .enum(IMPORT_FORMATS, { message: 'must be csv or ndjson' })
    .describe(
      'csv (a header row of API field names) or ndjson (one JSON object per line); the body’s type says it too.',
    )
    .optional(),
  mode: z
    .enum(IMPORT_MODES, { message: 'must be create or upsert' })
    .optional()
    .describe('create (default): every row makes a record; upsert: a row whose `key` matches a record updates it.'),
  key: z
    .string()
    .max(100, 'must be at most 100 characters')
    .optional()
    .describe("upsert: a unique field of the resource to match rows by (a contact's email, an invoice's number)."),
  dryRun: booleanFlag
    .optional()
    .describe('true: validate every row and try its write, then write nothing (the counts say what would happen).'),
  atomic: booleanFlag
    .optional()
    .describe('true: all rows or none: if any row is refused, nothing is written and the import fails.'),
});

export const importTemplateSchema = z.strictObject({ resource });

export const importList = defineList('Import', {
  sort: ['createdAt'],
  filters: {
    status: statusFilter('Import', IMPORT_STATUSES),
    resource: filter(resource, {
      description: 'Imports into this resource.',
      where: (p) => `"Import".resource = ${p}`,
    }),
  },
});
