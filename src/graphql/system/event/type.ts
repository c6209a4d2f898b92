import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { EventTypeEnum } from './event-type-enum.js';
import { ACTOR_TYPES, type ActorType } from '../../../auth/principal.js';
import { graphqlEnum } from '../../kit/enums.js';

const ACTOR_DESCRIPTIONS: Record<ActorType, string> = {
  user: 'A user: signed in to the dashboard, or through an OAuth app (authorization code).',
  api_key: 'An API key: sent as Bearer, or as the client of a client_credentials token.',
  oauth_app: 'An OAuth app acting for itself, with no user.',
  system: 'The service itself: the worker (export.completed), the operator CLI, events recorded before actors.',
};

const EventActorType = graphqlEnum('EventActorType', ACTOR_TYPES, {
  description: 'What kind of actor made a change.',
  valueDescriptions: (value) => ACTOR_DESCRIPTIONS[value as ActorType],
});

@ObjectType({ simpleResolvers: true, description: 'Who made the change an event records.' })
export class EventActor {
  @Field(() => EventActorType)
  type!: ActorType;

  @Field(() => ID, { nullable: true, description: "The user's, API key's or OAuth app's id; null for system." })
  id!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'Something that happened, as webhooks deliver it.' })
export class Event {
  @Field(() => ID)
  id!: string;

  @Field(() => EventTypeEnum)
  type!: string;

  @Field(() => Int, { description: 'Unix time in seconds.' })
  created!: number;

  @Field(() => GraphQLJSONObject, { description: '{ object, previousAttributes? }' })
  data!: Record<string, unknown>;

  @Field(() => EventActor, { description: 'Who made the change.' })
  actor!: EventActor;
}
