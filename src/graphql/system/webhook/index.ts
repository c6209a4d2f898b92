import { defineModule } from '../../kit/module.js';
import { DeliveryLogResolver, WebhookDeliveryResolver } from './delivery-log-resolver.js';
import { deliveryLogRoutes } from './delivery-log-routes.js';
import { WebhookDeliveryLog } from './delivery-log.js';
import { DeliveryStatsResolver } from './delivery-stats-resolver.js';
import { WebhookDeliveryStats } from './delivery-stats.js';
import { DispatchResolver } from './dispatch-resolver.js';
import { redeliveryRoutes, testRoutes } from './dispatch-routes.js';
import { WebhookDispatcher } from './dispatch.js';
import { WebhookResolver } from './resolver.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './service.js';

// Subscriptions, the deliveries log, its hourly stats and the deliveries asked for:
// one module, a service and resolver for each job. Routes in the order of the document.
export const webhookModule = defineModule({
  resolvers: [WebhookResolver, DispatchResolver, DeliveryLogResolver, DeliveryStatsResolver, WebhookDeliveryResolver],
  routes: [...webhookRoutes, ...testRoutes, ...deliveryLogRoutes, ...redeliveryRoutes],
  services: {
    webhooks: (deps) => new WebhookService(deps),
    webhookDeliveries: (deps) => new WebhookDeliveryLog(deps),
    webhookStats: (deps) => new WebhookDeliveryStats(deps),
    webhookDispatch: (deps) => new WebhookDispatcher(deps),
  },
});
