// The routes of deliveries asked for: a test event, a retry, a redelivery.
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { route } from '../../kit/routes.js';
import { redeliverSchema } from './input.js';
import { WebhookDispatch } from './type.js';

const tag = 'Webhooks';
const dispatch = selectionOf(WebhookDispatch);

export const testRoutes = [
  route({
    method: 'post',
    path: '/webhooks/:id/test',
    tag,
    summary: 'Send a test event',
    description:
      'Queues a `webhook.test` event (data.object: the webhook) to this webhook only, even when disabled; one attempt, seen in its deliveries log.',
    operation: `mutation ($id: ID!) { testWebhook(id: $id) { ${dispatch} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: responseSchemaOf(WebhookDispatch),
  }),
];

export const redeliveryRoutes = [
  route({
    method: 'post',
    path: '/webhooks/:id/deliveries/:deliveryId/retry',
    tag,
    summary: 'Retry a delivery',
    description:
      'Sends the event of this delivery again (one attempt, the same event id). The webhook must be enabled.',
    operation: `mutation ($id: ID!, $deliveryId: ID!) { retryWebhookDelivery(webhookId: $id, deliveryId: $deliveryId) { ${dispatch} } }`,
    variables: ({ params }) => ({ id: params.id, deliveryId: params.deliveryId }),
    status: 200,
    response: responseSchemaOf(WebhookDispatch),
    conflict: 'The webhook is disabled, or the event is no longer kept',
  }),
  route({
    method: 'post',
    path: '/webhooks/:id/redeliver',
    tag,
    summary: 'Redeliver failed events',
    description:
      'Sends again (one attempt each, the same event ids) every event created at or after `since` whose attempts to this webhook all failed; at most 10,000.',
    operation: `mutation ($id: ID!, $since: Int!) { redeliverWebhook(id: $id, since: $since) { ${dispatch} } }`,
    body: redeliverSchema,
    variables: ({ params, body }) => ({ id: params.id, since: body.since }),
    status: 200,
    response: responseSchemaOf(WebhookDispatch),
    conflict: 'The webhook is disabled',
  }),
];
