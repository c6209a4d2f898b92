// What is sent to a webhook: the deliveries log (a webhook's attempts, each
// with its event and body), its hourly counts, and the deliveries asked for (a
// test, a retry, a redelivery) with the event type catalogue; `admin` only.
// Routes in the order of the document (after the subscription's own).
import { defineModule } from '../../kit/module.js';
import { DeliveryLogResolver, WebhookDeliveryResolver } from './delivery-log-resolver.js';
import { deliveryLogRoutes } from './delivery-log-routes.js';
import { WebhookDeliveryLog } from './delivery-log.js';
import { DeliveryStatsResolver } from './delivery-stats-resolver.js';
import { WebhookDeliveryStats } from './delivery-stats.js';
import { DispatchResolver } from './dispatch-resolver.js';
import { redeliveryRoutes, testRoutes } from './dispatch-routes.js';
import { WebhookDispatcher } from './dispatch.js';

export const webhookDeliveryModule = defineModule({
  resolvers: [DispatchResolver, DeliveryLogResolver, DeliveryStatsResolver, WebhookDeliveryResolver],
  routes: [...testRoutes, ...deliveryLogRoutes, ...redeliveryRoutes],
  services: {
    webhookDeliveries: (deps) => new WebhookDeliveryLog(deps),
    webhookStats: (deps) => new WebhookDeliveryStats(deps),
    webhookDispatch: (deps) => new WebhookDispatcher(deps),
  },
});
