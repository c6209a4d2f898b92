// The deliveries log in GraphQL: webhookDeliveries and webhookDelivery, a
// webhook's recent deliveries, and each delivery's event and body. Every field
// needs `admin` (docs/decisions.md, Webhooks); the work is in delivery-log.ts.
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { graphqlEnum } from '../../kit/enums.js';
import { loaderFor } from '../../kit/loaders.js';
import { lookupOptions } from '../../kit/lookup.js';
import { PageOf, type Page } from '../../kit/page.js';
import { RelationPageArgs } from '../../kit/relations.js';
import { Requires } from '../../kit/scope.js';
import { Event } from '../event/type.js';
import { deliveryList } from './input.js';
import { Webhook } from '../webhook/type.js';
import { DELIVERY_STATUSES, WebhookDelivery } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const WebhookDeliveryPage = PageOf(WebhookDelivery);
// The deliveries log's status filter's enum (input.ts), the same type.
const WebhookDeliveryStatus = graphqlEnum('WebhookDeliveryStatus', DELIVERY_STATUSES);

/** Webhook.deliveries' arguments: every relation list's page and limit, and a status filter. */
@ArgsType()
class RecentDeliveriesArgs extends RelationPageArgs {
  @Field(() => WebhookDeliveryStatus, { nullable: true, description: 'succeeded or failed.' })
  status?: string | null;
}

@Resolver(() => Webhook)
export class DeliveryLogResolver {
  @Requires('admin')
  @Query(() => WebhookDeliveryPage, { description: 'Every delivery attempt to the webhook, oldest first.' })
  webhookDeliveries(
    @Arg('webhookId', () => ID) webhookId: string,
    @Args(() => deliveryList.Args) args: object,
    @Ctx() ctx: Context,
  ): Promise<Page<WebhookDelivery>> {
    return ctx.services.webhookDeliveries.deliveries(requirePrincipal(ctx), webhookId, givenArgs(args));
  }

  @Requires('admin')
  @Query(() => WebhookDelivery, lookupOptions('delivery of this webhook'))
  webhookDelivery(
    @Arg('webhookId', () => ID) webhookId: string,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: Context,
  ): Promise<WebhookDelivery> {
    return ctx.services.webhookDeliveries.delivery(requirePrincipal(ctx), webhookId, id);
  }

  @Requires('admin')
  @FieldResolver(() => WebhookDeliveryPage, {
    description: "The webhook's delivery attempts, newest first (webhookDeliveries sorts and filters more).",
  })
  deliveries(
    @Root() webhook: Webhook,
    @Args(() => RecentDeliveriesArgs) args: RecentDeliveriesArgs,
    @Ctx() ctx: Context,
  ): Promise<Page<WebhookDelivery>> {
    const given = givenArgs({ ...args, sort: '-createdAt' });
    return ctx.services.webhookDeliveries.deliveries(requirePrincipal(ctx), webhook.id, given);
  }
}

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @FieldResolver(() => Event, {
    nullable: true,
    description: 'The event delivered; null once it is no longer kept (EVENT_RETENTION_DAYS).',
  })
  async event(@Root() delivery: WebhookDelivery, @Ctx() ctx: Context): Promise<Event | null> {
    const principal = requirePrincipal(ctx);
    // One query for every delivery of the answer.
    const events = loaderFor<string, Event | undefined>(ctx, 'WebhookDelivery.event', (ids) =>
      ctx.services.webhookDeliveries.eventsByIds(principal, ids),
    );
    return (await events.load(delivery.eventId)) ?? null;
  }

  @FieldResolver(() => GraphQLJSONObject, {
    nullable: true,
    description:
      "The body POSTed: the event's envelope with its data as the webhook's scopes read it now (the bytes of " +
      'each attempt were signed when sent); null once the event is no longer kept (EVENT_RETENTION_DAYS).',
  })
  async payload(@Root() delivery: WebhookDelivery, @Ctx() ctx: Context): Promise<object | null> {
    const principal = requirePrincipal(ctx);
    const bodies = loaderFor<string, object | undefined>(ctx, 'WebhookDelivery.payload', (keys) =>
      ctx.services.webhookDeliveries.payloads(principal, keys),
    );
    return (await bodies.load(`${delivery.webhookId} ${delivery.eventId}`)) ?? null;
  }
}
