import { defineModule } from '../../kit/module.js';
import { WebhookDeliveryResolver, WebhookResolver } from './resolver.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './service.js';

export const webhookModule = defineModule({
  resolvers: [WebhookResolver, WebhookDeliveryResolver],
  routes: webhookRoutes,
  services: { webhooks: (deps) => new WebhookService(deps) },
});
