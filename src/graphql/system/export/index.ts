// Exports on the kit: a file of one resource's rows, asked for here and written
// by the worker (src/jobs/run-export.ts); listed, shown and downloaded only by
// callers holding every scope the file holds (visibility.ts). Any credential may
// ask; what it may export and the pending cap are the rules (rules.ts,
// request.ts); what can be exported is sources.ts, how it is written format.ts.
import { EXPORT_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { defineModule } from '../../kit/module.js';
import { openSystemArea } from '../../kit/resource.js';
import { exportInput, exportList } from './input.js';
import { downloadRoute } from './routes.js';
import { exportRules } from './rules.js';
import { ExportService } from './service.js';
import { Export } from './type.js';
import { exportsVisibleTo } from './visibility.js';

export const exports = defineResource({
  type: Export,
  idPrefix: ID_PREFIX.export,
  system: true,
  area: openSystemArea('Exports'),
  path: 'exports',
  names: { one: 'export', many: 'exports' },
  input: exportInput,
  list: exportList,
  operations: { update: false },
  events: { created: EXPORT_EVENTS.created },
  visibleTo: exportsVisibleTo,
  accepted: true,
  rules: exportRules,
  conflicts: { create: 'The organization already has EXPORT_MAX_PENDING (default 5) exports pending or running' },
  forbidden: {
    create:
      'Credential lacks the resource’s read scope (admin for events), or `scopes` names a scope the credential lacks',
  },
  descriptions: {
    list: 'The exports whose scopes the caller holds (admin: every one).',
    get: 'Its status and progress: rowsWritten, and rowsTotal once the worker has counted the rows.',
    create:
      'Queues an export of every row of a resource matching the filters, oldest first (createdAt, id); the worker ' +
      'writes the file. Needs the resource’s read scope (finance:read for invoices and invoice-lines, hr:payroll ' +
      'for payroll runs); events need admin. Each row is the REST object with the name of each reference beside ' +
      'it (contactName beside contactId). Answers the export, pending; follow it with GET /exports/{id}, then ' +
      'download it. Only callers holding every one of its scopes see it. ' +
      'Raises `export.completed` when the file is ready. Files are kept EXPORT_RETENTION_DAYS (default 7). ' +
      'A file over EXPORT_MAX_ROWS rows (default 1,000,000) or EXPORT_MAX_BYTES (default 1 GiB) fails, saying so: ' +
      'narrow it with filters.',
  },
});

export const exportModule = defineModule({
  ...exports.module,
  routes: [...exports.module.routes, downloadRoute],
  services: { exports: (deps) => new ExportService(exports.resource, deps) },
});
