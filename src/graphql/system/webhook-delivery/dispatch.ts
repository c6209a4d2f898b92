// Deliveries asked for, besides those the fan-out queues for every event: a test
// event, a retry of one logged delivery, a redelivery of the events whose attempts
// all failed; and the catalogue of event types a webhook may subscribe to. Each
// queues deliver_webhook jobs (src/jobs/deliver-webhook.ts) with
// graphile_worker.add_job, in the transaction or statement that decides them.
import { actorOf, type Principal } from '../../../auth/principal.js';
import { DomainError, notFound } from '../../../errors.js';
import { cataloguedEvent, readableEventTypes } from '../../../events/catalogue.js';
import { insertEvent } from '../../../events/emit.js';
import { TEST_EVENT_TYPE } from '../../../events/system-events.js';
import type { Webhook as WebhookRow } from '../../../generated/prisma/client.js';
import { isWellFormedId } from '../../../ids.js';
import {
  ADD_DELIVERY_JOB_SQL,
  DELIVER_WEBHOOK,
  JOB_MAX_ATTEMPTS,
  type DeliveryPayload,
} from '../../../jobs/delivery-jobs.js';
import { parseInput } from '../../../validation.js';
import { toPublic } from '../../kit/fields.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { redeliverSchema } from './input.js';
import { ownedWebhook } from './owned.js';
import { Webhook } from '../webhook/type.js';
import type { WebhookDispatch, WebhookEventType } from './type.js';

/** The most events one redelivery queues. */
export const REDELIVER_LIMIT = 10_000;

/** Each event with its latest attempt (the delivery a redelivery sends again) whose attempts all failed. */
const FAILED_SINCE = `select d."eventId", (array_agg(d.id order by d."createdAt" desc, d.id desc))[1] as "redeliveryOf"
  from "WebhookDelivery" d join "Event" e on e.id = d."eventId"
  where d."webhookId" = $1 and d."organizationId" = $2 and d.trigger <> 'test' and e."createdAt" >= $3
  group by d."eventId", e."createdAt"
  having bool_and(d.status = 'failed') and not bool_or(coalesce(d."nextAttemptAt" > now(), false))
  order by e."createdAt", d."eventId" limit ${REDELIVER_LIMIT}`;

/** One job per event still kept, each naming the delivery it sends again; one statement: every job or none. */
const QUEUE = `select e.id, graphile_worker.add_job('${DELIVER_WEBHOOK}',
    json_build_object('eventId', e.id, 'webhookId', $3::text, 'trigger', $4::text, 'redeliveryOf', r."redeliveryOf"),
    max_attempts => ${JOB_MAX_ATTEMPTS}) is not null as queued
  from unnest($1::text[], $5::text[]) as r("eventId", "redeliveryOf")
  join "Event" e on e.id = r."eventId" and e."organizationId" = $2
  order by e."createdAt", e.id`;

export class WebhookDispatcher {
  constructor(private readonly db: ServiceDependencies) {}

  /** The event types the caller may subscribe a webhook to (those it can read), with their area. */
  eventTypes(principal: Principal): WebhookEventType[] {
    return readableEventTypes(principal.scopes).map((type) => {
      const { area, description } = cataloguedEvent(type);
      return { type, area, description };
    });
  }

  /**
   * Queues a test event (type webhook.test, data.object the webhook) to this webhook
   * only, even a disabled one, so that a receiver can be checked before enabling it.
   * One attempt; it does not count towards the endpoint's health.
   */
  async sendTest(principal: Principal, id: string): Promise<WebhookDispatch> {
    const webhook = toPublic(Webhook, await ownedWebhook(this.db.prisma, principal, id));
    const { organizationId } = principal;
    const event = await this.db.prisma.$transaction(async (tx) => {
      const test = { organizationId, type: TEST_EVENT_TYPE, object: webhook, actor: actorOf(principal) };
      const written = await insertEvent(tx, test);
      const payload: DeliveryPayload = { eventId: written.id, webhookId: id, trigger: 'test' };
      await tx.$executeRawUnsafe(ADD_DELIVERY_JOB_SQL, JSON.stringify(payload), new Date());
      return written;
    });
    return { webhookId: id, eventIds: [event.id], count: 1 };
  }

  /** Sends the event of a logged delivery again: one attempt, with the same event id. */
  async retryDelivery(principal: Principal, webhookId: string, deliveryId: string): Promise<WebhookDispatch> {
    const webhook = await ownedWebhook(this.db.prisma, principal, webhookId);
    if (!isWellFormedId('webhookDelivery', deliveryId)) throw notFound('Delivery');
    const delivery = await this.db.prisma.webhookDelivery.findFirst({
      where: { id: deliveryId, webhookId, organizationId: principal.organizationId },
    });
    if (!delivery) throw notFound('Delivery');
    const test = delivery.eventType === TEST_EVENT_TYPE;
    if (!test) requireEnabled(webhook);
    const again = [{ eventId: delivery.eventId, redeliveryOf: delivery.id }];
    const queued = await this.queue(principal, webhookId, again, test ? 'test' : 'manual');
    if (!queued.length) throw new DomainError('CONFLICT', `Event ${delivery.eventId} is no longer kept`);
    return { webhookId, eventIds: queued, count: queued.length };
  }

  /** Sends again every event since `since` whose attempts to this webhook all failed (at most REDELIVER_LIMIT). */
  async redeliver(principal: Principal, webhookId: string, input: unknown): Promise<WebhookDispatch> {
    const webhook = await ownedWebhook(this.db.prisma, principal, webhookId);
    const { since } = parseInput(redeliverSchema, input);
    requireEnabled(webhook);
    const { rows } = await this.db.pool.query<{ eventId: string; redeliveryOf: string }>({
      text: FAILED_SINCE,
      values: [webhookId, principal.organizationId, new Date(since * 1000)],
    });
    const queued = await this.queue(principal, webhookId, rows, 'manual');
    return { webhookId, eventIds: queued, count: queued.length };
  }

  /** Queues the events still kept, in one statement; returns those queued. */
  private async queue(
    principal: Principal,
    webhookId: string,
    redeliveries: readonly { eventId: string; redeliveryOf: string }[],
    trigger: 'manual' | 'test',
  ): Promise<string[]> {
    if (!redeliveries.length) return [];
    const { rows } = await this.db.pool.query<{ id: string }>({
      text: QUEUE,
      values: [
        redeliveries.map((one) => one.eventId),
        principal.organizationId,
        webhookId,
        trigger,
        redeliveries.map((one) => one.redeliveryOf),
      ],
    });
    return rows.map((row) => row.id);
  }
}

function requireEnabled(webhook: WebhookRow): void {
  if (webhook.status !== 'enabled') {
    throw new DomainError('CONFLICT', 'The webhook is disabled: enable it (PUT status enabled) first', 'status');
  }
}
