import { defineModule } from '../../kit/module.js';
import { OauthAppResolver } from './resolver.js';
import { oauthAppRoutes } from './routes.js';
import { OauthAppService } from './service.js';

export const oauthAppModule = defineModule({
  resolvers: [OauthAppResolver],
  routes: oauthAppRoutes,
  services: { oauthApps: (deps) => new OauthAppService(deps) },
});
