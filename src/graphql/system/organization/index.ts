import { defineModule } from '../../kit/module.js';
import { OrganizationService } from './service.js';

/** No API of its own: operators create organizations (CLI, first-run bootstrap). */
export const organizationModule = defineModule({
  resolvers: [],
  routes: [],
  services: { organizations: (deps) => new OrganizationService(deps) },
});
