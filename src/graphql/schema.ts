// The one GraphQL schema: every module's resolvers, and scopes through the authChecker.
import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { authChecker } from './auth-checker.js';
import { guardScopedFields } from './kit/field-scopes.js';
import { RESOLVERS } from './modules.js';

let schema: Promise<GraphQLSchema> | undefined;

export function getSchema(): Promise<GraphQLSchema> {
  schema ??= buildSchema({
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    resolvers: RESOLVERS as unknown as NonEmptyArray<Function>,
    authChecker,
    // Validation is done by the services' zod schemas, not class-validator.
    validate: false,
    // A scoped field with a resolver of its own answers null without its scope (kit/field-scopes.ts).
  }).then(guardScopedFields);
  return schema;
}
