import { defineModule } from '../../kit/module.js';
import { ContactResolver } from './resolver.js';
import { contactRoutes } from './routes.js';
import { ContactService } from './service.js';

export const contactModule = defineModule({
  resolvers: [ContactResolver],
  routes: contactRoutes,
  services: { contacts: (deps) => new ContactService(deps) },
});
