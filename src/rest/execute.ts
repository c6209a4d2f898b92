// Runs GraphQL operations in-process for the REST layer: each route's document
// is parsed, validated and compiled (graphql-jit) once at start-up, then executed
// per request against the same schema, resolvers and context as /graphql.
// No HTTP self-call, no second copy of the logic; compiling skips graphql-js's
// per-request walk of the document, which costs a REST list more than the query.
import { parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { internalError } from '../errors.js';
import type { Context } from '../graphql/context.js';
import { domainErrorOf } from '../graphql/errors.js';

export interface PreparedOperation {
  compiled: CompiledQuery;
  /** The operation's single root field, whose value is the REST result. */
  rootField: string;
}

export function prepareOperation(schema: GraphQLSchema, source: string): PreparedOperation {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`invalid REST operation ${source}: ${errors.map((e) => e.message).join('; ')}`);
  const operation = document.definitions[0] as OperationDefinitionNode;
  const selections = operation.selectionSet.selections;
  if (selections.length !== 1 || selections[0]!.kind !== 'Field') {
    throw new Error(`a REST operation selects exactly one root field: ${source}`);
  }
  const field = selections[0]!;
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(`cannot compile REST operation ${source}`);
  return { compiled, rootField: field.alias?.value ?? field.name.value };
}

export async function runOperation(
  operation: PreparedOperation,
  variableValues: Record<string, unknown>,
  contextValue: Context,
): Promise<unknown> {
  const result = await operation.compiled.query(undefined, contextValue, variableValues);
  if (result.errors?.length) throw domainErrorOf(result.errors[0]!);
  const data = result.data?.[operation.rootField];
  if (data === undefined) throw internalError(new Error(`no data for ${operation.rootField}`));
  return data;
}
