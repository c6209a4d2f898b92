// Events need a credential but no particular scope: what it can read is
// filtered by its scopes in EventService.
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { loaderFor } from '../../kit/loaders.js';
import { Requires } from '../../kit/scope.js';
import { Event, EventActor } from './type.js';
import { EventTypeEnum } from './event-type-enum.js';
import { graphqlEnum } from '../../kit/enums.js';
import { sortValueName } from '../../kit/list.js';
import { EVENT_SORTS } from './list.js';

/** Oldest first (the outbox's order), or newest first (a history, a log to read). */
const EventSort = graphqlEnum('EventSort', EVENT_SORTS, {
  description: 'The order of an event list: `createdAt` oldest first, `createdAt_desc` newest first; then by id.',
  valueNames: sortValueName,
  valueDescriptions: (value) =>
    `By createdAt, ${value.startsWith('-') ? 'newest' : 'oldest'} first (REST: sort=${value}).`,
});

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

  @Field(() => EventSort, { nullable: true, description: 'Default: createdAt, oldest first.' })
  sort?: string;
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

@Resolver(() => EventActor)
export class EventActorResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      "Who it is, in words: the user's name (else email), the API key's or OAuth app's name, System; " +
      'null once the user, key or app is deleted.',
  })
  name(@Root() actor: EventActor, @Ctx() ctx: Context): Promise<string | null> {
    const principal = requirePrincipal(ctx);
    // One query for a page of events' actors, not one per event.
    const loader = loaderFor<EventActor, string | null>(ctx, 'EventActor.name', (actors) =>
      ctx.services.events.actorNames(principal, actors),
    );
    return loader.load(actor);
  }
}
