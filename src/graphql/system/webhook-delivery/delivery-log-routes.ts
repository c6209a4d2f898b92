// The deliveries log's routes: a webhook's attempts, and one of them.
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { pageOf, PAGINATION_SELECTION, route } from '../../kit/routes.js';
import { deliveryList } from './input.js';
import { WebhookDelivery } from './type.js';

const tag = 'Webhooks';

export const deliveryLogRoutes = [
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
];
