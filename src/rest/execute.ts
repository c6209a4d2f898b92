// Runs GraphQL operations in-process for the REST layer: each route's document
// is parsed and validated once at start-up, then executed per request against
// the same schema and context as /graphql. No HTTP self-call, no second logic.
import { execute, parse, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { internalError } from '../errors.js';
import type { Context } from '../graphql/context.js';
import { domainErrorOf } from '../graphql/errors.js';

export interface PreparedOperation {
  document: DocumentNode;
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
  return { document, rootField: field.alias?.value ?? field.name.value };
}

export async function runOperation(
  schema: GraphQLSchema,
  operation: PreparedOperation,
  variableValues: Record<string, unknown>,
  contextValue: Context,
): Promise<unknown> {
  const result = await execute({ schema, document: operation.document, variableValues, contextValue });
  if (result.errors?.length) throw domainErrorOf(result.errors[0]!);
  const data = result.data?.[operation.rootField];
  if (data === undefined) throw internalError(new Error(`no data for ${operation.rootField}`));
  return data;
}
