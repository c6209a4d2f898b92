// One attempt of the deliveries log, its headers, what a test, retry or
// redelivery has queued, an hour of the log's counts and the event type catalogue.
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTime } from '../../kit/date-time.js';
import { computed, FIELD_KINDS, oneOf, Public, storedObjectList } from '../../kit/fields.js';
import { EventTypeEnum } from '../event/event-type-enum.js';

export const DELIVERY_STATUSES = ['succeeded', 'failed'] as const;
export const DELIVERY_TRIGGERS = ['event', 'manual', 'test'] as const;

/**
 * A failed attempt's retry is pending until the next attempt of its event runs, or
 * until a later attempt (a retry or redelivery asked for) gets the event through:
 * the worker then drops the scheduled retry (src/jobs/deliver-webhook.ts).
 */
const retryPendingSql = (t: string) => `("${t}"."nextAttemptAt" is not null and not exists (
    select 1 from "WebhookDelivery" later
    where later."webhookId" = "${t}"."webhookId" and later."eventId" = "${t}"."eventId" and later.id <> "${t}".id
      and ((later.trigger = 'event' and "${t}".trigger = 'event' and later.attempt = "${t}".attempt + 1)
        or (later.status = 'succeeded' and later."createdAt" >= "${t}"."createdAt"))))`;

@ObjectType({ simpleResolvers: true, description: 'An HTTP header of a delivery: its request or its answer.' })
export class WebhookHeader {
  @Public.text({ description: "As sent or received (the request's in lower case)." })
  name!: string;

  @Public.text()
  value!: string;
}

@ObjectType({ simpleResolvers: true, description: 'One delivery attempt of one event to a webhook.' })
export class WebhookDelivery {
  @Public.id()
  id!: string;

  @Public.id()
  webhookId!: string;

  @Public.id({ description: 'The event id: the same on every attempt (the webhook-id header).' })
  eventId!: string;

  @Public.text()
  eventType!: string;

  @Public.int({ description: '1 to 4 for an event (the first attempt and 3 retries); 1 for a manual one.' })
  attempt!: number;

  @Public.of(oneOf(DELIVERY_TRIGGERS), {
    description: 'event: the event and its retries; manual: a retry or redelivery asked for; test: a test event.',
  })
  trigger!: string;

  @Public.of(oneOf(DELIVERY_STATUSES))
  status!: string;

  @Public.int({ nullable: true, description: 'The HTTP status answered; null when none was (timeout, connection).' })
  statusCode!: number | null;

  @Public.int()
  durationMs!: number;

  @Public.text({ nullable: true })
  error!: string | null;

  @Public.text({ nullable: true, description: 'The first 1 KiB of the answer.' })
  responseExcerpt!: string | null;

  @Public.of(storedObjectList(WebhookHeader), {
    nullable: true,
    description:
      'The headers sent, signatures included (the signing secret never is); null for attempts logged before they were kept.',
  })
  requestHeaders!: { name: string; value: string }[] | null;

  @Public.of(storedObjectList(WebhookHeader), {
    nullable: true,
    description: 'The headers answered (at most 50, each value its first 1 KiB); null when there was no answer.',
  })
  responseHeaders!: { name: string; value: string }[] | null;

  @Public.timestamp({ nullable: true, description: 'When this attempt failed and a retry is scheduled: its time.' })
  nextAttemptAt!: string | null;

  @Public.of(computed(FIELD_KINDS.boolean, retryPendingSql), {
    description:
      'Whether the retry nextAttemptAt names is still to come: false once it has run, or once the event got through ' +
      'to the webhook meanwhile (a retry asked for), which stops it.',
  })
  retryPending!: boolean;

  @Public.id({
    nullable: true,
    description: 'A retry or redelivery asked for (trigger manual, or test): the delivery whose event it sends again.',
  })
  redeliveryOf!: string | null;

  @Public.timestamp()
  createdAt!: string;
}

@ObjectType({ simpleResolvers: true, description: 'Deliveries queued for a webhook (a test, a retry, a redelivery).' })
export class WebhookDispatch {
  @Public.id()
  webhookId!: string;

  @Public.idList({ description: 'The events queued, each once.' })
  eventIds!: string[];

  @Public.int()
  count!: number;
}

// GraphQL only (the dashboard): aggregates and the event type catalogue, no REST route.

@ObjectType({ simpleResolvers: true, description: "One hour of a webhook's delivery attempts." })
export class WebhookDeliveryHour {
  @Field(() => DateTime, { description: 'The start of the hour (UTC).' })
  hour!: Date;

  @Field(() => Int)
  succeeded!: number;

  @Field(() => Int)
  failed!: number;
}

@ObjectType({ simpleResolvers: true, description: 'An event type a webhook can subscribe to.' })
export class WebhookEventType {
  @Field(() => EventTypeEnum)
  type!: string;

  @Field(() => String, { description: 'crm, hr, finance or system.' })
  area!: string;

  @Field(() => String)
  description!: string;
}
