import { defineModule } from '../../kit/module.js';
import { ImportQueries, ImportResolver } from './resolver.js';
import { importRoutes } from './routes.js';
import { ImportService } from './service.js';

export const importModule = defineModule({
  resolvers: [ImportQueries, ImportResolver],
  routes: importRoutes,
  services: { imports: (deps) => new ImportService(deps) },
});
