import { defineModule } from '../../kit/module.js';
import { OAuthGrantService } from './service.js';

/** No API of its own: the OAuth endpoints (src/oauth) issue, check and revoke through it. */
export const oauthGrantModule = defineModule({
  resolvers: [],
  routes: [],
  services: { oauthGrants: (deps) => new OAuthGrantService(deps) },
});
