// Who made a change, as a field of a record (a leave request's `decidedBy`): the
// same `{type, id}` an event's `actor` says (auth/principal.ts actorOf), kept in
// a JSONB column and shown as the `Actor` object in GraphQL, REST and OpenAPI.
import { ObjectType } from 'type-graphql';
import { ACTOR_TYPES, type ActorType } from '../../auth/principal.js';
import { oneOf, Public, responseSchemaOf, selectionOf, type FieldKind } from './fields.js';

@ObjectType({
  simpleResolvers: true,
  description: 'Who made a change: a user, an API key, an OAuth app acting for itself, or the system (id null).',
})
export class Actor {
  @Public.of(oneOf(ACTOR_TYPES), {
    description:
      'user (a person, signed in or through an OAuth app), api_key (a Bearer key, or the client of a ' +
      'client_credentials token), oauth_app (an app acting for itself) or system (the operator CLI, the worker).',
  })
  type!: ActorType;

  @Public.id({ nullable: true, description: "The user's, API key's or OAuth app's id; null for system." })
  id!: string | null;
}

/** A field holding an Actor (a JSONB column), for `@Public.of(actorKind, ...)`. */
export const actorKind: FieldKind = {
  graphql: () => Actor,
  schema: () => responseSchemaOf(Actor),
  sql: (column) => column,
  fromRow: (value) => value,
  column: 'JSONB',
  selection: () => selectionOf(Actor),
};
