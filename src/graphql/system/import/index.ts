import { defineModule } from '../../kit/module.js';
import { ImportResolver } from './resolver.js';
import { importRoutes } from './routes.js';
import { ImportService } from './service.js';

export const importModule = defineModule({
  resolvers: [ImportResolver],
  routes: importRoutes,
  services: { imports: (deps) => new ImportService(deps) },
});
