import { defineModule } from '../../kit/module.js';
import { WebhookResolver } from './resolver.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './service.js';

export const webhookModule = defineModule({
  resolvers: [WebhookResolver],
  routes: webhookRoutes,
  services: { webhooks: (deps) => new WebhookService(deps) },
});
