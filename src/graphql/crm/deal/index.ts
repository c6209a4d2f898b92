import { defineModule } from '../../kit/module.js';
import { ContactDealsResolver, DealResolver } from './resolver.js';
import { dealRoutes } from './routes.js';
import { DealService } from './service.js';

export const dealModule = defineModule({
  resolvers: [DealResolver, ContactDealsResolver],
  routes: dealRoutes,
  services: { deals: (deps) => new DealService(deps) },
});
