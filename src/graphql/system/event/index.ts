import { defineModule } from '../../kit/module.js';
import { EventActorResolver, EventResolver } from './resolver.js';
import { eventRoutes } from './routes.js';
import { EventService } from './service.js';

export const eventModule = defineModule({
  resolvers: [EventResolver, EventActorResolver],
  routes: eventRoutes,
  services: { events: (deps) => new EventService(deps) },
});
