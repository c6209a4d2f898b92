// The deliveries log's list arguments, its stats' hours and a redelivery's range.
import { z } from 'zod';
import { defineList, filter } from '../../kit/list.js';
import { MAX_INT, wholeNumber } from '../../kit/page.js';
import { text } from '../../kit/values.js';
import { DELIVERY_STATUSES } from './type.js';

/** The deliveries log's arguments (the webhook is named by the path). */
export const deliveryList = defineList('WebhookDelivery', {
  sort: ['createdAt'],
  filters: {
    status: filter(z.enum(DELIVERY_STATUSES, { message: 'must be succeeded or failed' }), {
      description: 'succeeded or failed.',
      where: (p) => `"WebhookDelivery".status = ${p}`,
    }),
    eventId: filter(text(100), {
      description: 'The attempts of one event.',
      where: (p) => `"WebhookDelivery"."eventId" = ${p}`,
    }),
  },
});

/** The hours webhookDeliveryStats covers: up to a week. */
export const MAX_STATS_HOURS = 168;

const statsHours = `must be an integer from 1 to ${MAX_STATS_HOURS}`;

export const deliveryStatsSchema = z.strictObject({
  hours: wholeNumber(statsHours).pipe(z.number().min(1, statsHours).max(MAX_STATS_HOURS, statsHours)).default(24),
});

const unixTime = 'must be a Unix time in seconds';

export const redeliverSchema = z.strictObject({
  since: wholeNumber(unixTime)
    .pipe(z.number().min(0, unixTime).max(MAX_INT, `must be at most ${MAX_INT}`))
    .meta({ type: 'integer', minimum: 0, maximum: MAX_INT, description: 'Events created at or after this Unix time.' }),
});
