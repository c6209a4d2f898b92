// Thin: every webhook operation needs `admin` (docs/decisions.md, Webhooks); the
// work is in WebhookService.
import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { Requires } from '../../kit/scope.js';
import { deliveryList, webhookInput, webhookList } from './input.js';
import { NewWebhook, Webhook, WebhookDelivery, WebhookDispatch } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const WebhookPage = PageOf(Webhook);
const WebhookDeliveryPage = PageOf(WebhookDelivery);

@Resolver(() => Webhook)
export class WebhookResolver {
  @Requires('admin')
  @Query(() => WebhookPage, { description: 'Webhook subscriptions of the organization.' })
  webhooks(@Args(() => webhookList.Args) args: object, @Ctx() ctx: Context): Promise<Page<Webhook>> {
    return ctx.services.webhooks.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('admin')
  @Query(() => Webhook)
  webhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Webhook> {
    return ctx.services.webhooks.get(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => NewWebhook, { description: 'The signing secret is in this answer only.' })
  createWebhook(@Arg('input', () => webhookInput.CreateInput) input: object, @Ctx() ctx: Context): Promise<NewWebhook> {
    return ctx.services.webhooks.create(requirePrincipal(ctx), { ...input });
  }

  @Requires('admin')
  @Mutation(() => Webhook)
  updateWebhook(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => webhookInput.UpdateInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<Webhook> {
    return ctx.services.webhooks.update(requirePrincipal(ctx), id, { ...input });
  }

  @Requires('admin')
  @Mutation(() => Boolean)
  deleteWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.webhooks.delete(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => NewWebhook, { description: 'A new signing secret, in this answer only; the old one stops at once.' })
  rotateWebhookSecret(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<NewWebhook> {
    return ctx.services.webhooks.rotateSecret(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => WebhookDispatch, { description: 'Queues a webhook.test event to this webhook only.' })
  testWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<WebhookDispatch> {
    return ctx.services.webhooks.sendTest(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Query(() => WebhookDeliveryPage, { description: 'Every delivery attempt to the webhook, oldest first.' })
  webhookDeliveries(
    @Arg('webhookId', () => ID) webhookId: string,
    @Args(() => deliveryList.Args) args: object,
    @Ctx() ctx: Context,
  ): Promise<Page<WebhookDelivery>> {
    return ctx.services.webhooks.deliveries(requirePrincipal(ctx), webhookId, givenArgs(args));
  }

  @Requires('admin')
  @Mutation(() => WebhookDispatch, { description: 'Sends the event of a logged delivery again (one attempt).' })
  retryWebhookDelivery(
    @Arg('webhookId', () => ID) webhookId: string,
    @Arg('deliveryId', () => ID) deliveryId: string,
    @Ctx() ctx: Context,
  ): Promise<WebhookDispatch> {
    return ctx.services.webhooks.retryDelivery(requirePrincipal(ctx), webhookId, deliveryId);
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
    return ctx.services.webhooks.redeliver(requirePrincipal(ctx), id, { since });
  }
}
