import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { route, type RestRoute } from '../../kit/routes.js';
import { resourceRoutes } from '../../kit/resource-routes.js';
import { requirePrincipal } from '../../auth-checker.js';
import { CONTENT_TYPES } from './format.js';
import { createExportSchema, exportList } from './input.js';
import { Export } from './type.js';

const tag = 'Exports';
const fields = selectionOf(Export);

export const exportRoutes: RestRoute[] = [
  ...resourceRoutes({
    path: '/exports',
    tag,
    type: Export,
    noun: ['export', 'exports'],
    list: exportList,
    only: ['list', 'get'],
    names: { one: 'export', many: 'exports' },
    descriptions: {
      list: 'The exports whose scopes the caller holds (admin: every one).',
      get: 'Its status and progress: rowsWritten, and rowsTotal once the worker has counted the rows.',
    },
  }),
  route({
    method: 'post',
    path: '/exports',
    tag,
    summary: 'Create an export',
    description:
      'Queues an export of every row of a resource matching the filters, oldest first (createdAt, id); the worker ' +
      'writes the file. Needs the resource’s read scope (finance:read for invoices and invoice-lines, hr:payroll ' +
      'for payroll runs); events need admin. Each row is the REST object with the name of each reference beside ' +
      'it (contactName beside contactId). Answers the export, pending; follow it with GET /exports/{id}, then ' +
      'download it. Only callers holding every one of its scopes see it. ' +
      'Raises `export.completed` when the file is ready. Files are kept EXPORT_RETENTION_DAYS (default 7). ' +
      'A file over EXPORT_MAX_ROWS rows (default 1,000,000) or EXPORT_MAX_BYTES (default 1 GiB) fails, saying so: ' +
      'narrow it with filters.',
    operation: `mutation ($input: CreateExportInput!) { createExport(input: $input) { ${fields} } }`,
    body: createExportSchema,
    variables: ({ body }) => ({ input: body }),
    status: 202,
    conflict: 'The organization already has EXPORT_MAX_PENDING (default 5) exports pending or running',
    forbidden:
      'Credential lacks the resource’s read scope (admin for events), or `scopes` names a scope the credential lacks',
    response: responseSchemaOf(Export),
  }),
  route({
    method: 'get',
    path: '/exports/:id/download',
    tag,
    summary: "Download an export's file",
    operationId: 'downloadExport',
    description:
      'The file, streamed: text/csv (RFC 4180, a header row, a UTF-8 byte order mark first when asked) or ' +
      'application/x-ndjson (one row object per line), with a Content-Disposition naming it.',
    operation: `query ($id: ID!) { export(id: $id) { id } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    conflict: 'The export is not completed yet (or failed)',
    file: {
      contentTypes: Object.values(CONTENT_TYPES),
      open: (ctx, data) => ctx.services.exports.download(requirePrincipal(ctx), (data as { id: string }).id),
    },
  }),
];
