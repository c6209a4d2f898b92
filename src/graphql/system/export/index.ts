import { defineModule } from '../../kit/module.js';
import { ExportQueries, ExportResolver } from './resolver.js';
import { exportRoutes } from './routes.js';
import { ExportService } from './service.js';

export const exportModule = defineModule({
  resolvers: [ExportQueries, ExportResolver],
  routes: exportRoutes,
  services: { exports: (deps) => new ExportService(deps) },
});
