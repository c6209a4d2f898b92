import { defineModule } from '../../kit/module.js';
import { ExportResolver } from './resolver.js';
import { exportRoutes } from './routes.js';
import { ExportService } from './service.js';

export const exportModule = defineModule({
  resolvers: [ExportResolver],
  routes: exportRoutes,
  services: { exports: (deps) => new ExportService(deps) },
});
