// The subscriptions' routes; the deliveries log's are delivery-log-routes.ts, the dispatches' dispatch-routes.ts.
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { resourceRoutes, route } from '../../kit/routes.js';
import { webhookInput, webhookList } from './input.js';
import { NewWebhook, Webhook } from './type.js';

const tag = 'Webhooks';

export const webhookRoutes = [
  ...resourceRoutes({
    path: '/webhooks',
    tag,
    type: Webhook,
    noun: ['webhook', 'webhooks'],
    list: webhookList,
    input: webhookInput,
    only: ['list', 'get', 'update', 'delete'],
    descriptions: {
      update:
        'Partial: fields sent are changed, omitted are kept, null clears the description. `status: enabled` re-enables a disabled webhook.',
      delete: 'Deletes the webhook and its deliveries log; nothing more is sent to it.',
    },
  }),
  route({
    method: 'post',
    path: '/webhooks',
    tag,
    summary: 'Create a webhook',
    description:
      'The answer holds the signing `secret`: it is not shown again. Needs the read scope of every event type subscribed to.',
    operation: `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { ${selectionOf(NewWebhook)} } }`,
    body: webhookInput.create,
    variables: ({ body }) => ({ input: body }),
    status: 201,
    response: responseSchemaOf(NewWebhook),
  }),
  route({
    method: 'post',
    path: '/webhooks/:id/rotate-secret',
    tag,
    summary: "Rotate a webhook's secret",
    description:
      'A new signing secret, shown in this answer only; deliveries are signed with it from now on. The replaced secret still signs beside it (a second signature in `webhook-signature`) for WEBHOOK_SECRET_ROTATION_GRACE_S (24 hours by default; 0 ends it at once), so receivers can switch without failing; a rotation within that time ends the older secret at once.',
    operation: `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { ${selectionOf(NewWebhook)} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: responseSchemaOf(NewWebhook),
  }),
];
