// A webhook's deliveries log: every attempt (the worker writes them,
// src/jobs/attempts.ts), its pages through the kit's list in one snapshot (the
// log grows all the time), one attempt, and what each attempt's event and body are.
import type { Principal } from '../../../auth/principal.js';
import { notFound } from '../../../errors.js';
import { deliveryBody, type DeliveryBody } from '../../../events/delivery-body.js';
import { eventEnvelope } from '../../../events/envelope.js';
import { isWellFormedId } from '../../../ids.js';
import { sqlSelectOf } from '../../kit/field-sql.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import type { Event } from '../event/type.js';
import { deliveryList } from './input.js';
import { ownedWebhook } from './owned.js';
import { WebhookDelivery } from './type.js';

export class WebhookDeliveryLog {
  constructor(private readonly db: ServiceDependencies) {}

  /** One page of the webhook's deliveries log, oldest first unless sorted; its total from the page's snapshot. */
  async deliveries(principal: Principal, webhookId: string, args: unknown): Promise<Page<WebhookDelivery>> {
    await ownedWebhook(this.db.prisma, principal, webhookId);
    const narrow = {
      where: (p: string) => `"WebhookDelivery"."webhookId" = ${p}`,
      value: webhookId,
      bound: 'webhookId',
    };
    const source = { table: 'WebhookDelivery', type: WebhookDelivery, list: deliveryList, narrow, snapshot: true };
    return listPage(this.db.pool, source, principal, args);
  }

  /** One attempt of the webhook's deliveries log. */
  async delivery(principal: Principal, webhookId: string, id: string): Promise<WebhookDelivery> {
    await ownedWebhook(this.db.prisma, principal, webhookId);
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
}
