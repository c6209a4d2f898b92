// A webhook's delivery attempts per hour, for the dashboard's chart: counted by
// PostgreSQL over the deliveries log, one row per hour.
import type { Principal } from '../../../auth/principal.js';
import { parseInput } from '../../../validation.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { deliveryStatsSchema } from './input.js';
import { ownedWebhook } from './owned.js';
import type { WebhookDeliveryHour } from './type.js';

const PER_HOUR = `with span as (
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
  order by h.hour`;

export class WebhookDeliveryStats {
  constructor(private readonly db: ServiceDependencies) {}

  /**
   * Attempts per hour over the last `hours` hours (the current one included),
   * oldest first, hours without any as zeros. Hours are UTC's, whatever the
   * connection's time zone.
   */
  async deliveryStats(principal: Principal, webhookId: string, input: unknown): Promise<WebhookDeliveryHour[]> {
    const { hours } = parseInput(deliveryStatsSchema, input);
    await ownedWebhook(this.db.prisma, principal, webhookId);
    const values = [principal.organizationId, webhookId, hours];
    const { rows } = await this.db.pool.query<WebhookDeliveryHour>({ text: PER_HOUR, values });
    return rows;
  }
}
