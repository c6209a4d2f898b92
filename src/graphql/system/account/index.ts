import { defineModule } from '../../kit/module.js';
import { AccountResolver } from './resolver.js';

/** GraphQL only (the dashboard's account page); its services are the session and user modules'. */
export const accountModule = defineModule({
  resolvers: [AccountResolver],
  routes: [],
  services: {},
});
