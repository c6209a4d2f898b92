import { defineModule } from '../../kit/module.js';
import { ApiKeyResolver } from './resolver.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService } from './service.js';

export const apiKeyModule = defineModule({
  resolvers: [ApiKeyResolver],
  routes: apiKeyRoutes,
  services: { apiKeys: (deps) => new ApiKeyService(deps) },
});
