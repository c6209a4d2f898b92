import { defineModule } from '../../kit/module.js';
import { ChangeResolver } from './resolver.js';
import { changeRoutes } from './routes.js';
import { ChangeService } from './service.js';

export const changeModule = defineModule({
  resolvers: [ChangeResolver],
  routes: changeRoutes,
  services: { changes: (deps) => new ChangeService(deps) },
});
