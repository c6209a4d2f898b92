// Webhook input and list arguments, each written once (see kit/inputs.ts, kit/list.ts).
import { z } from 'zod';
import { EVENT_TYPES, isEventType } from '../../../events/catalogue.js';
import { hasNoNul, NUL_MESSAGE } from '../../../validation.js';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { scopeList, text } from '../../kit/values.js';
import { ScopeEnum } from '../../kit/wire-enums.js';
import { WEBHOOK_STATUSES } from './type.js';
import { EventTypeEnum } from '../event/event-type-enum.js';

/** Event types, duplicates dropped; an unknown one is a 400 naming `events` (not `events.2`). */
const eventTypeList = z
  .array(z.unknown(), 'must be an array of event types')
  .superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one event type' });
    const unknown = list.filter((type) => !isEventType(type));
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown event type ${unknown.map((type) => JSON.stringify(type)).join(', ')}; known: ${EVENT_TYPES.join(', ')}`,
      });
    }
  })
  .transform((list) => [...new Set(list as string[])])
  // The items are checked together above (one message naming `events`); the document lists them.
  .meta({ items: { type: 'string', enum: [...EVENT_TYPES] }, minItems: 1 });

/** An absolute http(s) URL; the stricter rules of a deployment are the service's (they resolve the host). */
const webhookUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .refine(hasNoNul, NUL_MESSAGE)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

export const webhookInput = defineInput('Webhook', {
  url: required(webhookUrl),
  events: required(eventTypeList, { graphql: () => [EventTypeEnum], description: 'Event types to deliver.' }),
  scopes: optional(scopeList({ min: 1 }), {
    graphql: () => [ScopeEnum],
    description:
      "What its deliveries carry, each held by the caller and including every event's read scope: an event's " +
      'data is what a holder of these scopes reads (`hr:read` without `hr:payroll`: employees without salary). ' +
      "Default: the caller's scopes.",
  }),
  description: optional(text(500)),
  status: optional(z.enum(WEBHOOK_STATUSES, { message: 'must be enabled or disabled' }), {
    description: 'enabled (the default) or disabled; enabling again clears disabledReason.',
  }),
});

export const webhookList = defineList('Webhook', {
  sort: ['createdAt', 'updatedAt', 'url'],
  filters: {
    status: filter(z.enum(WEBHOOK_STATUSES, { message: 'must be enabled or disabled' }), {
      description: 'enabled or disabled.',
      where: (p) => `"Webhook".status = ${p}`,
    }),
  },
});
