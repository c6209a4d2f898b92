// An export's request, as the kit takes it, and the exports list (see kit/list.ts).
// Which resources exist and what their filters are is known at run time
// (sources.ts): here a resource is any name, checked by the rules (request.ts).
// The body is the request's own schema, not defineInput's: its optional fields
// are not nullable, and an export is never updated.
import { GraphQLJSONObject } from 'graphql-scalars';
import { z } from 'zod';
import { inputType, optional, required, type AnyResourceInput } from '../../kit/inputs.js';
import { defineList } from '../../kit/list.js';
import { scopeList } from '../../kit/values.js';
import { ScopeEnum } from '../../kit/wire-enums.js';
import { EXPORT_AMOUNTS } from './amounts.js';
import { statusFilter } from '../file-job/fields.js';
import { EXPORT_FORMATS, EXPORT_STATUSES } from './type.js';

export const createExportSchema = z.strictObject({
  resource: z
    .string()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe(
      'A listable resource: the last segment of its REST path (contacts, deals, employees, attendance, leave-requests, ' +
        'payroll-runs, invoices, …), invoice-lines (one row per invoice line) or events. Needs the read scope of ' +
        "the resource's area (finance:read for invoices); events need admin.",
    ),
  format: z
    .enum(EXPORT_FORMATS, { message: 'must be csv or json' })
    .describe('csv, or json: newline-delimited JSON (application/x-ndjson), one REST object per line.'),
  amounts: z
    .enum(EXPORT_AMOUNTS, { message: 'must be minor or decimal' })
    .optional()
    .describe(
      "minor (default): money in integer minor units, as the API writes it; decimal: in major units with the currency's " +
        'decimals (10710 EUR is 107.10, 1500 JPY is 1500, 1500 KWD is 1.500), exact; in json as strings. ' +
        'Not for events, nor for a resource whose amounts have no currency beside them (pay-components).',
    ),
  bom: z
    .boolean('must be true or false')
    .optional()
    .describe('csv only: start the file with a UTF-8 byte order mark, so Excel reads it as UTF-8. Default false.'),
  filters: z
    .record(z.string(), z.unknown(), 'must be an object of the resource list filters')
    .optional()
    .describe("The resource's list filters (as its list's query parameters take them; not page, limit or sort)."),
  scopes: scopeList({ min: 1 })
    .optional()
    .describe(
      "What the file holds, each held by the caller and including the resource's read scope: a row as a holder " +
        "of these scopes reads it (`['hr:read']`: employees without salary). Only callers holding every one see " +
        "the export. Default: an admin's own; anyone else's that the file depends on (the resource's read scope, " +
        'and hr:payroll for salaries when held).',
    ),
});

export const exportList = defineList('Export', {
  sort: ['createdAt'],
  filters: { status: statusFilter('Export', EXPORT_STATUSES) },
});

// The GraphQL input of createExportSchema's fields (enums ExportFormat, ExportAmounts: the type's).
const shape = createExportSchema.shape;
const fields = {
  resource: required(shape.resource, {
    description: 'The last segment of the resource REST path (contacts, payroll-runs) or events.',
  }),
  format: required(shape.format),
  amounts: optional(shape.amounts, {
    description: "Money in minor units (default) or in major units with the currency's decimals (107.10).",
  }),
  bom: optional(shape.bom, { description: 'csv only: a UTF-8 byte order mark first, for Excel.' }),
  filters: optional(shape.filters, { graphql: () => GraphQLJSONObject, description: "The resource's list filters." }),
  scopes: optional(shape.scopes, {
    graphql: () => [ScopeEnum],
    description:
      'What the file holds: a row as a holder of these scopes reads it; only callers holding all of them see the ' +
      "export. Default: an admin's scopes; anyone else's that the file depends on.",
  }),
};
const CreateInput = inputType('Export', 'CreateExportInput', fields, (field) => !field.required, 'What to export.');

/** The kit's input of an export: created only (no update is served). */
export const exportInput: AnyResourceInput = {
  fields,
  create: createExportSchema,
  update: createExportSchema,
  CreateInput,
  UpdateInput: CreateInput,
};
