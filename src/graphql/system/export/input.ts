// An export's request and the exports list (see kit/list.ts). Which resources
// exist and what their filters are is known at run time (sources.ts): here a
// resource is any name, checked by the service.
import { z } from 'zod';
import { defineList } from '../../kit/list.js';
import { scopeList } from '../../kit/values.js';
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
