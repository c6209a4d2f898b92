// Events need a credential but no particular scope: what it can read is
// filtered by its scopes in EventService.
import { Arg, Args, ArgsType, Ctx, Field, ID, Int, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { Requires } from '../../kit/scope.js';
import { Event } from './type.js';
import { EventTypeEnum } from './event-type-enum.js';

@ArgsType()
class EventListArgs {
  @Field(() => Int, { nullable: true, description: 'From 1; default 1.' })
  page?: number;

  @Field(() => Int, { nullable: true, description: '1 to 100; default 50.' })
  limit?: number;

  @Field(() => String, {
    nullable: true,
    description: "The page after this cursor (a previous page's pagination.next); not with page.",
  })
  after?: string;

  @Field(() => EventTypeEnum, { nullable: true, description: 'Only events of this type.' })
  type?: string;

  @Field(() => Int, { nullable: true, description: 'Only events created at or after this Unix time (seconds).' })
  since?: number;

  @Field(() => ID, { nullable: true, description: 'Only events about this record (data.object.id): its history.' })
  objectId?: string;
}

// Made at load time: type-graphql reads types when the schema is built, not later.
const EventPage = PageOf(Event);

@Resolver(() => Event)
export class EventResolver {
  @Requires()
  @Query(() => EventPage, { description: 'Events of the organization that the credential may read, oldest first.' })
  events(@Args(() => EventListArgs) args: EventListArgs, @Ctx() ctx: Context): Promise<Page<Event>> {
    return ctx.services.events.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires()
  @Query(() => Event, lookupOptions('event'))
  event(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Event> {
    return ctx.services.events.get(requirePrincipal(ctx), id);
  }
}
