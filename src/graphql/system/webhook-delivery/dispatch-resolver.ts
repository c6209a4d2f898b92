// Deliveries asked for in GraphQL (a test event, a retry, a redelivery) and the
// event types a webhook may subscribe to; admin only, the work is in dispatch.ts.
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { WebhookDispatch, WebhookEventType } from './type.js';

@Resolver()
export class DispatchResolver {
  @Requires('admin')
  @Mutation(() => WebhookDispatch, { description: 'Queues a webhook.test event to this webhook only.' })
  testWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<WebhookDispatch> {
    return ctx.services.webhookDispatch.sendTest(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => WebhookDispatch, { description: 'Sends the event of a logged delivery again (one attempt).' })
  retryWebhookDelivery(
    @Arg('webhookId', () => ID) webhookId: string,
    @Arg('deliveryId', () => ID) deliveryId: string,
    @Ctx() ctx: Context,
  ): Promise<WebhookDispatch> {
    return ctx.services.webhookDispatch.retryDelivery(requirePrincipal(ctx), webhookId, deliveryId);
  }

  @Requires('admin')
  @Mutation(() => WebhookDispatch, {
    description: 'Sends again every event since `since` whose attempts to this webhook all failed.',
  })
  redeliverWebhook(
    @Arg('id', () => ID) id: string,
    @Arg('since', () => Int, { description: 'Unix time in seconds.' }) since: number,
    @Ctx() ctx: Context,
  ): Promise<WebhookDispatch> {
    return ctx.services.webhookDispatch.redeliver(requirePrincipal(ctx), id, { since });
  }

  @Requires('admin')
  @Query(() => [WebhookEventType], { description: 'The event types a webhook of the caller can subscribe to.' })
  webhookEventTypes(@Ctx() ctx: Context): WebhookEventType[] {
    return ctx.services.webhookDispatch.eventTypes(requirePrincipal(ctx));
  }
}
