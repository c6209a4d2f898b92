import { defineModule } from '../../kit/module.js';
import { ViewerResolver } from './resolver.js';
import { ViewerService } from './service.js';

/** GraphQL only (the dashboard): no REST route. */
export const viewerModule = defineModule({
  resolvers: [ViewerResolver],
  routes: [],
  services: { viewer: (deps) => new ViewerService(deps) },
});
