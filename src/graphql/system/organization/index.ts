import { defineModule } from '../../kit/module.js';
import { OrganizationResolver } from './resolver.js';
import { organizationRoutes } from './routes.js';
import { OrganizationService } from './service.js';

/** Operators create organizations (CLI, first-run bootstrap); its members read it and its admins change its settings. */
export const organizationModule = defineModule({
  resolvers: [OrganizationResolver],
  routes: organizationRoutes,
  services: { organizations: (deps) => new OrganizationService(deps) },
});
