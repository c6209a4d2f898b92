import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { pageOf, PAGINATION_SELECTION, route } from '../../kit/routes.js';
import { deliveryList, redeliverSchema } from './input.js';
import { WebhookDelivery, WebhookDispatch } from './type.js';

const tag = 'Webhooks';
const dispatch = selectionOf(WebhookDispatch);

// Beside the kit's rows of the subscriptions (index.ts).
export const webhookRoutes = [
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
  route({
    method: 'get',
    path: '/webhooks/:id/deliveries',
    tag,
    summary: "List a webhook's deliveries",
    description:
      'Every attempt: event, status code, duration, error, an excerpt of the answer. Oldest first unless `sort=-createdAt`.',
    operation: `query ($id: ID!, ${deliveryList.variables.declarations}) {
      webhookDeliveries(webhookId: $id, ${deliveryList.variables.arguments}) {
        data { ${selectionOf(WebhookDelivery)} } ${PAGINATION_SELECTION} } }`,
    query: deliveryList.schema,
    variables: ({ params, query }) => ({
      ...deliveryList.variablesOf(query as Record<string, unknown>),
      id: params.id,
    }),
    status: 200,
    response: pageOf(responseSchemaOf(WebhookDelivery), 'WebhookDeliveryPage'),
  }),
  route({
    method: 'get',
    path: '/webhooks/:id/deliveries/:deliveryId',
    tag,
    summary: 'Get a delivery',
    description:
      'One attempt: its request headers (signatures, never the secret), the answer (status, headers, the start of its body), and the delivery it sends again when it is a retry or redelivery asked for.',
    operation: `query ($id: ID!, $deliveryId: ID!) { webhookDelivery(webhookId: $id, id: $deliveryId) { ${selectionOf(WebhookDelivery)} } }`,
    variables: ({ params }) => ({ id: params.id, deliveryId: params.deliveryId }),
    status: 200,
    response: responseSchemaOf(WebhookDelivery),
  }),
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
