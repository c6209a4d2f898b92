// The deliveries log's hourly counts in GraphQL (admin only); the work is in delivery-stats.ts.
import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { Requires } from '../../kit/scope.js';
import { WebhookDeliveryHour } from './type.js';

@Resolver()
export class DeliveryStatsResolver {
  @Requires('admin')
  @Query(() => [WebhookDeliveryHour], {
    description:
      'Delivery attempts per hour (UTC) over the last `hours` hours, the current one included, oldest first; ' +
      'hours without attempts are zeros.',
  })
  webhookDeliveryStats(
    @Arg('webhookId', () => ID) webhookId: string,
    @Arg('hours', () => Int, { nullable: true, defaultValue: 24, description: '1 to 168.' }) hours: number | null,
    @Ctx() ctx: Context,
  ): Promise<WebhookDeliveryHour[]> {
    return ctx.services.webhookStats.deliveryStats(requirePrincipal(ctx), webhookId, givenArgs({ hours }));
  }
}
