// Webhooks: the subscriptions are the kit's (list, get, create, update, delete,
// rotateSecret: index.ts and rules.ts); this service adds the deliveries log and
// what is queued on demand. Deliveries themselves are the worker's
// (src/jobs/deliver-webhook.ts): the fan-out trigger on "Event" queues them, and
// this service queues the ones asked for (a test event, a retry, a redelivery) in
// the same way, inside a transaction with graphile_worker.add_job.
import { actorOf, type Principal } from '../../../auth/principal.js';
import { DomainError, notFound } from '../../../errors.js';
import type { Webhook as WebhookRow } from '../../../generated/prisma/client.js';
import { ID_PREFIX, isWellFormedId, newId } from '../../../ids.js';
import {
  ADD_DELIVERY_JOB_SQL,
  DELIVER_WEBHOOK,
  JOB_MAX_ATTEMPTS,
  type DeliveryPayload,
} from '../../../jobs/delivery-jobs.js';
import { cataloguedEvent, readableEventTypes } from '../../../events/catalogue.js';
import { TEST_EVENT_TYPE } from '../../../events/system-events.js';
import { eventEnvelope } from '../../../events/emit.js';
import { deliveryBody, type DeliveryBody } from '../../../events/delivery-body.js';
import { parseInput } from '../../../validation.js';
import { keysetOf, nextCursor } from '../../kit/cursor.js';
import { refusePageWithCursor } from '../../kit/list-query.js';
import { orderOf, whereOf } from '../../kit/list.js';
import { pageWindow, paginationOf, type Page, type PageRequest } from '../../kit/page.js';
import { sqlSelectOf } from '../../kit/fields.js';
import { findOwned } from '../../kit/records.js';
import { ResourceService } from '../../kit/resource-service.js';
import type { Event } from '../event/type.js';
import { deliveryList, deliveryStatsSchema, redeliverSchema } from './input.js';
import {
  type Webhook,
  WebhookDelivery,
  type WebhookDeliveryHour,
  type WebhookDispatch,
  type WebhookEventType,
} from './type.js';

/** The most events one redelivery queues. */
export const REDELIVER_LIMIT = 10_000;

const LABEL = 'Webhook';

export class WebhookService extends ResourceService<Webhook> {
  /**
   * Queues a test event (type webhook.test, data.object the webhook) to this webhook
   * only, even a disabled one, so that a receiver can be checked before enabling it.
   * One attempt; it does not count towards the endpoint's health.
   */
  async sendTest(principal: Principal, id: string): Promise<WebhookDispatch> {
    const webhook = await this.get(principal, id);
    const eventId = newId('event');
    const actor = actorOf(principal);
    await this.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`
        insert into "Event" (id, "organizationId", type, data, "actorType", "actorId", "createdAt")
        values (${eventId}, ${principal.organizationId}, ${TEST_EVENT_TYPE},
                ${JSON.stringify({ object: webhook })}::jsonb, ${actor.type}, ${actor.id}, ${new Date()})`;
      await tx.$executeRawUnsafe(ADD_DELIVERY_JOB_SQL, job({ eventId, webhookId: id, trigger: 'test' }), new Date());
    });
    return { webhookId: id, eventIds: [eventId], count: 1 };
  }

  /** One page of the webhook's deliveries log, oldest first unless sorted. */
  async deliveries(principal: Principal, webhookId: string, args: unknown): Promise<Page<WebhookDelivery>> {
    await this.find(principal, webhookId);
    const filter = parseInput(deliveryList.schema, args) as PageRequest & Record<string, unknown>;
    refusePageWithCursor(filter);
    const table = 'WebhookDelivery';
    const sort = filter.sort as string | undefined;
    const where = whereOf(deliveryList, principal.organizationId, filter, table);
    const params = [...where.params, webhookId];
    const condition = `${where.sql} and "${table}"."webhookId" = $${params.length}`;
    const filters = Object.fromEntries(Object.keys(deliveryList.filters).map((name) => [name, filter[name]]));
    const pageParams = [...params];
    const keyset = keysetOf(table, { sort, after: filter.after, filters: { ...filters, webhookId } }, pageParams);
    const pageCondition = keyset.condition ? `${condition} and ${keyset.condition}` : condition;
    const { skip, take } = pageWindow(filter);
    // The page and its total from one snapshot: attempts are logged all the time, and a
    // total read a moment apart from its page could count fewer rows than the page holds.
    const client = await this.db.pool.connect();
    // A connection lost while checked out (a restart, a failover) is reported by the query
    // in flight; without a listener its 'error' event would also end the process.
    const ignore = () => {};
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      await client.query('begin isolation level repeatable read read only');
      const page = await client.query<WebhookDelivery>({
        text: `select ${sqlSelectOf(WebhookDelivery, table)} from "${table}" where ${pageCondition}
               order by ${orderOf(table, sort)}
               limit $${pageParams.length + 1} offset $${pageParams.length + 2}`,
        values: [...pageParams, take + 1, skip],
      });
      const count = await client.query<{ total: number }>({
        text: `select count(*)::int as total from "${table}" where ${condition}`,
        values: params,
      });
      await client.query('commit');
      const more = page.rows.length > take;
      const data = more ? page.rows.slice(0, take) : page.rows;
      const next = nextCursor(data as object[] as Record<string, unknown>[], more, keyset.binding, keyset.order.field);
      return { data, pagination: paginationOf(filter, { total: count.rows[0]!.total, next }) };
    } catch (error) {
      await client.query('rollback').catch((failed: Error) => (broken = failed));
      throw error;
    } finally {
      client.off('error', ignore);
      client.release(broken);
    }
  }

  /** One attempt of the webhook's deliveries log. */
  async delivery(principal: Principal, webhookId: string, id: string): Promise<WebhookDelivery> {
    await this.find(principal, webhookId);
    if (!isWellFormedId('webhookDelivery', id)) throw notFound('Delivery');
    const { rows } = await this.db.pool.query<WebhookDelivery>({
      text: `select ${sqlSelectOf(WebhookDelivery, 'WebhookDelivery')} from "WebhookDelivery"
             where id = $1 and "webhookId" = $2 and "organizationId" = $3`,
      values: [id, webhookId, principal.organizationId],
    });
    if (!rows[0]) throw notFound('Delivery');
    return rows[0];
  }

  /**
   * What deliveries of these events to these webhooks carry (`keys`: `webhookId eventId`),
   * in their order: the envelope as the worker builds it, its data as the webhook's
   * scopes read it now; undefined for an event no longer kept. One query per request.
   */
  async payloads(principal: Principal, keys: readonly string[]): Promise<(DeliveryBody | undefined)[]> {
    const pairs = keys.map((key) => key.split(' ') as [string, string]);
    const [events, webhooks] = await Promise.all([
      this.db.prisma.event.findMany({
        where: { id: { in: pairs.map(([, eventId]) => eventId) }, organizationId: principal.organizationId },
      }),
      this.db.prisma.webhook.findMany({
        where: { id: { in: pairs.map(([webhookId]) => webhookId) }, organizationId: principal.organizationId },
        select: { id: true, scopes: true },
      }),
    ]);
    const eventById = new Map(events.map((row) => [row.id, eventEnvelope(row)]));
    const scopesOf = new Map(webhooks.map((row) => [row.id, new Set(row.scopes)]));
    return pairs.map(([webhookId, eventId]) => {
      const event = eventById.get(eventId);
      const scopes = scopesOf.get(webhookId);
      return event && scopes ? deliveryBody(event, scopes) : undefined;
    });
  }

  /**
   * Attempts per hour over the last `hours` hours (the current one included),
   * oldest first, hours without any as zeros: counted by PostgreSQL, one row per hour.
   * Hours are UTC's, whatever the connection's time zone.
   */
  async deliveryStats(principal: Principal, webhookId: string, input: unknown): Promise<WebhookDeliveryHour[]> {
    const { hours } = parseInput(deliveryStatsSchema, input);
    await this.find(principal, webhookId);
    const { rows } = await this.db.pool.query<WebhookDeliveryHour>({
      text: `with span as (
               select date_trunc('hour', now(), 'UTC') - ($3::int - 1) * interval '1 hour' as first,
                      date_trunc('hour', now(), 'UTC') as last),
             counts as (
               select date_trunc('hour', d."createdAt", 'UTC') as hour,
                      count(*) filter (where d.status = 'succeeded')::int as succeeded,
                      count(*) filter (where d.status = 'failed')::int as failed
               from "WebhookDelivery" d, span
               where d."organizationId" = $1 and d."webhookId" = $2 and d."createdAt" >= span.first
               group by 1)
             select h.hour, coalesce(c.succeeded, 0) as succeeded, coalesce(c.failed, 0) as failed
             from span, generate_series(span.first, span.last, interval '1 hour') as h(hour)
             left join counts c on c.hour = h.hour
             order by h.hour`,
      values: [principal.organizationId, webhookId, hours],
    });
    return rows;
  }

  /** The event types the caller may subscribe a webhook to (those it can read), with their area. */
  eventTypes(principal: Principal): WebhookEventType[] {
    return readableEventTypes(principal.scopes).map((type) => {
      const { area, description } = cataloguedEvent(type);
      return { type, area, description };
    });
  }

  /**
   * The events delivered, in the order of `ids` (undefined for one no longer kept),
   * of the caller's organization: for WebhookDelivery.event, one query per request.
   * A test delivery's event (webhook.test) is stored too, so it is found.
   */
  async eventsByIds(principal: Principal, ids: readonly string[]): Promise<(Event | undefined)[]> {
    const rows = await this.db.prisma.event.findMany({
      where: { id: { in: [...ids] }, organizationId: principal.organizationId },
    });
    const found = new Map(rows.map((row) => [row.id, eventEnvelope(row)]));
    return ids.map((id) => found.get(id));
  }

  /** Sends the event of a logged delivery again: one attempt, with the same event id. */
  async retryDelivery(principal: Principal, webhookId: string, deliveryId: string): Promise<WebhookDispatch> {
    const webhook = await this.find(principal, webhookId);
    if (!isWellFormedId('webhookDelivery', deliveryId)) throw notFound('Delivery');
    const delivery = await this.db.prisma.webhookDelivery.findFirst({
      where: { id: deliveryId, webhookId, organizationId: principal.organizationId },
    });
    if (!delivery) throw notFound('Delivery');
    const test = delivery.eventType === TEST_EVENT_TYPE;
    if (!test) requireEnabled(webhook);
    const queued = await this.queue(
      principal,
      webhookId,
      [{ eventId: delivery.eventId, redeliveryOf: delivery.id }],
      test ? 'test' : 'manual',
    );
    if (!queued.length) throw new DomainError('CONFLICT', `Event ${delivery.eventId} is no longer kept`);
    return { webhookId, eventIds: queued, count: queued.length };
  }

  /** Sends again every event since `since` whose attempts to this webhook all failed (at most REDELIVER_LIMIT). */
  async redeliver(principal: Principal, webhookId: string, input: unknown): Promise<WebhookDispatch> {
    const webhook = await this.find(principal, webhookId);
    const { since } = parseInput(redeliverSchema, input);
    requireEnabled(webhook);
    // Each with its latest attempt: the delivery the redelivery sends again.
    const { rows } = await this.db.pool.query<{ eventId: string; redeliveryOf: string }>({
      text: `select d."eventId", (array_agg(d.id order by d."createdAt" desc, d.id desc))[1] as "redeliveryOf"
             from "WebhookDelivery" d join "Event" e on e.id = d."eventId"
             where d."webhookId" = $1 and d."organizationId" = $2 and d.trigger <> 'test' and e."createdAt" >= $3
             group by d."eventId", e."createdAt"
             having bool_and(d.status = 'failed') and not bool_or(coalesce(d."nextAttemptAt" > now(), false))
             order by e."createdAt", d."eventId" limit ${REDELIVER_LIMIT}`,
      values: [webhookId, principal.organizationId, new Date(since * 1000)],
    });
    const queued = await this.queue(principal, webhookId, rows, 'manual');
    return { webhookId, eventIds: queued, count: queued.length };
  }

  /** Adds one job per event still kept, each naming the delivery it sends again, in one statement; returns the events queued. */
  private async queue(
    principal: Principal,
    webhookId: string,
    redeliveries: readonly { eventId: string; redeliveryOf: string }[],
    trigger: 'manual' | 'test',
  ): Promise<string[]> {
    if (!redeliveries.length) return [];
    // One statement: every job or none.
    const { rows } = await this.db.pool.query<{ id: string }>({
      text: `select e.id, graphile_worker.add_job('${DELIVER_WEBHOOK}',
                json_build_object('eventId', e.id, 'webhookId', $3::text, 'trigger', $4::text,
                                  'redeliveryOf', r."redeliveryOf"),
                max_attempts => ${JOB_MAX_ATTEMPTS}) is not null as queued
             from unnest($1::text[], $5::text[]) as r("eventId", "redeliveryOf")
             join "Event" e on e.id = r."eventId" and e."organizationId" = $2
             order by e."createdAt", e.id`,
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

  private find(principal: Principal, id: string): Promise<WebhookRow> {
    return findOwned(ID_PREFIX.webhook, LABEL, id, (id) =>
      this.db.prisma.webhook.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
  }
}

function job(payload: DeliveryPayload): string {
  return JSON.stringify(payload);
}

function requireEnabled(webhook: WebhookRow): void {
  if (webhook.status !== 'enabled') {
    throw new DomainError('CONFLICT', 'The webhook is disabled: enable it (PUT status enabled) first', 'status');
  }
}
