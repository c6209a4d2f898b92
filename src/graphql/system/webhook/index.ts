// Webhook subscriptions on the kit: created with a signing secret shown once
// (sealed at rest), listed, changed, enabled and disabled, deleted with their
// deliveries log, their secret rotated; `admin` only (rules.ts). Beside them, a
// service and resolver for each other job: the deliveries log, its hourly stats
// and the deliveries asked for (test, retry, redelivery). Routes in the order of the document.
import { WEBHOOK_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { defineModule } from '../../kit/module.js';
import { systemArea } from '../../kit/resource.js';
import { DeliveryLogResolver, WebhookDeliveryResolver } from './delivery-log-resolver.js';
import { deliveryLogRoutes } from './delivery-log-routes.js';
import { WebhookDeliveryLog } from './delivery-log.js';
import { DeliveryStatsResolver } from './delivery-stats-resolver.js';
import { WebhookDeliveryStats } from './delivery-stats.js';
import { DispatchResolver } from './dispatch-resolver.js';
import { redeliveryRoutes, testRoutes } from './dispatch-routes.js';
import { WebhookDispatcher } from './dispatch.js';
import { webhookInput, webhookList } from './input.js';
import { keepReplacedSecret, signingSecret, webhookRules } from './rules.js';
import { Webhook } from './type.js';

const { created, updated, deleted, secretRotated } = WEBHOOK_EVENTS;

export const webhooks = defineResource({
  type: Webhook,
  idPrefix: ID_PREFIX.webhook,
  system: true,
  area: systemArea('Webhooks'),
  path: 'webhooks',
  names: { one: 'webhook', many: 'webhooks' },
  input: webhookInput,
  list: webhookList,
  operations: { delete: true },
  events: { created, updated, deleted },
  secret: signingSecret,
  actions: {
    rotateSecret: {
      mutation: 'rotateWebhookSecret',
      summary: "Rotate a webhook's secret",
      description:
        'A new signing secret, shown in this answer only; deliveries are signed with it from now on. The replaced secret still signs beside it (a second signature in `webhook-signature`) for WEBHOOK_SECRET_ROTATION_GRACE_S (24 hours by default; 0 ends it at once), so receivers can switch without failing; a rotation within that time ends the older secret at once.',
      issuesSecret: true,
      sets: keepReplacedSecret,
      event: secretRotated,
    },
  },
  rules: webhookRules,
  descriptions: {
    create:
      'The answer holds the signing `secret`: it is not shown again. Needs the read scope of every event type subscribed to.',
    update:
      'Partial: fields sent are changed, omitted are kept, null clears the description. `status: enabled` re-enables a disabled webhook.',
    delete: 'Deletes the webhook and its deliveries log; nothing more is sent to it.',
  },
});

export const webhookModule = defineModule({
  resolvers: [
    ...webhooks.module.resolvers,
    DispatchResolver,
    DeliveryLogResolver,
    DeliveryStatsResolver,
    WebhookDeliveryResolver,
  ],
  routes: [...webhooks.module.routes, ...testRoutes, ...deliveryLogRoutes, ...redeliveryRoutes],
  services: {
    ...webhooks.module.services,
    webhookDeliveries: (deps) => new WebhookDeliveryLog(deps),
    webhookStats: (deps) => new WebhookDeliveryStats(deps),
    webhookDispatch: (deps) => new WebhookDispatcher(deps),
  },
});
