// Thin: every webhook operation needs `admin` (docs/decisions.md, Webhooks); the
// subscriptions' work is in WebhookService (the deliveries log, its stats and the
// deliveries asked for have their own resolvers).
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { Requires } from '../../kit/scope.js';
import { webhookInput, webhookList } from './input.js';
import { NewWebhook, Webhook } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const WebhookPage = PageOf(Webhook);

@Resolver(() => Webhook)
export class WebhookResolver {
  @Requires('admin')
  @Query(() => WebhookPage, { description: 'Webhook subscriptions of the organization.' })
  webhooks(@Args(() => webhookList.Args) args: object, @Ctx() ctx: Context): Promise<Page<Webhook>> {
    return ctx.services.webhooks.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('admin')
  @Query(() => Webhook, lookupOptions('webhook'))
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
    return ctx.services.webhooks.update(requirePrincipal(ctx), id, { ...input }, ctx.restInput?.fixed);
  }

  @Requires('admin')
  @Mutation(() => Boolean)
  deleteWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.webhooks.delete(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => NewWebhook, {
    description:
      'A new signing secret, in this answer only; deliveries are signed with it from now on. The replaced secret still signs beside it (a second signature) for WEBHOOK_SECRET_ROTATION_GRACE_S (24 hours by default; 0 ends it at once), so receivers can switch without failing; a rotation within that time ends the older secret at once.',
  })
  rotateWebhookSecret(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<NewWebhook> {
    return ctx.services.webhooks.rotateSecret(requirePrincipal(ctx), id);
  }
}
