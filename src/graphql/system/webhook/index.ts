// Webhook subscriptions on the kit: created with a signing secret shown once
// (sealed at rest), listed, changed, enabled and disabled, deleted with their
// deliveries log, their secret rotated; `admin` only (rules.ts). What is sent to
// them (the deliveries log, its stats, a test, a retry, a redelivery) is
// ../webhook-delivery/.
import { WEBHOOK_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { systemArea } from '../../kit/resource.js';
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

export const webhookModule = webhooks.module;
