// The one GraphQL schema: every resolver, and scopes through the authChecker.
import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { authChecker } from './auth-checker.js';
import { ContactResolver } from './crm/contact.resolver.js';
import { EventResolver } from './system/event.resolver.js';

let schema: Promise<GraphQLSchema> | undefined;

export function getSchema(): Promise<GraphQLSchema> {
  schema ??= buildSchema({
    resolvers: [ContactResolver, EventResolver],
    authChecker,
    // Validation is done by the services' zod schemas, not class-validator.
    validate: false,
  });
  return schema;
}
