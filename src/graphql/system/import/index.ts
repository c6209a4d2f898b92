// Imports on the kit: listed and shown by the kit (each narrowed to the imports
// the caller may see: visibility.ts), the file received by the upload route and
// the service (a file is not a GraphQL value), applied by the worker
// (src/jobs/run-import.ts); the template of a resource's file is resolver.ts's.
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { defineModule } from '../../kit/module.js';
import { openSystemArea } from '../../kit/resource.js';
import { importList } from './input.js';
import { ImportTemplateResolver } from './resolver.js';
import { templateRoute, uploadRoute } from './routes.js';
import { ImportService } from './service.js';
import { Import } from './type.js';
import { importsVisibleTo } from './visibility.js';

export const imports = defineResource({
  type: Import,
  idPrefix: ID_PREFIX.import,
  system: true,
  area: openSystemArea('Imports'),
  path: 'imports',
  names: { one: 'import', many: 'imports' },
  list: importList,
  visibleTo: importsVisibleTo,
  descriptions: {
    list: 'The imports into resources the caller reads or writes (admin: every one), oldest first.',
    get:
      'Its status, progress (rowsTotal once counted, rowsProcessed growing a batch at a time), what it created ' +
      'and updated, and the refused rows with the API’s own messages.',
  },
});

export const importModule = defineModule({
  resolvers: [...imports.module.resolvers, ImportTemplateResolver],
  // The template before GET /imports/:id, which would take `template` for an id.
  routes: [templateRoute, ...imports.module.routes, uploadRoute],
  services: { imports: (deps) => new ImportService(imports.resource, deps) },
});
