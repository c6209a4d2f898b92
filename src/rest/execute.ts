// Runs GraphQL operations in-process for the REST layer: each route's document
// is parsed, validated and compiled (graphql-jit) once at start-up, then executed
// per request against the same schema, resolvers and context as /graphql.
// No HTTP self-call, no second copy of the logic; compiling skips graphql-js's
// per-request walk of the document, which costs a REST list more than the query.
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  typeFromAST,
  validate,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { internalError } from '../errors.js';
import type { Context } from '../graphql/context.js';
import { domainErrorOf } from '../graphql/errors.js';
import { renamedEnums } from '../graphql/kit/enums.js';
import { hiddenFieldsOf, removeHidden, type HiddenFields } from '../graphql/kit/field-scopes.js';

export interface PreparedOperation {
  compiled: CompiledQuery;
  /** The operation's single root field, whose value is the REST result. */
  rootField: string;
  /** REST's variables as GraphQL takes them: wire values of renamed enums by their names. */
  variablesOf(values: Record<string, unknown>): Record<string, unknown>;
  /** The fields of its answer that need a scope (a salary): left out for a caller without it. */
  hidden: HiddenFields | null;
}

type Convert = (value: unknown) => unknown;

/**
 * REST speaks wire values (`crm:read`), GraphQL documents an enum's value
 * names (`crm_read`, kit/enums.ts wireEnum): the converter of a variable of
 * `type` to names, or undefined when nothing in it is such an enum (the usual
 * case, which then costs nothing).
 */
function toEnumNames(type: GraphQLInputType, seen = new Set<string>()): Convert | undefined {
  if (isNonNullType(type)) return toEnumNames(type.ofType, seen);
  if (isListType(type)) {
    const item = toEnumNames(type.ofType, seen);
    return item && ((value) => (Array.isArray(value) ? value.map(item) : item(value)));
  }
  if (isEnumType(type)) {
    const names = renamedEnums.get(type.name);
    return names && ((value) => (typeof value === 'string' ? (names.get(value) ?? value) : value));
  }
  if (!isInputObjectType(type) || seen.has(type.name)) return undefined;
  seen.add(type.name);
  const fields = Object.values(type.getFields()).flatMap((field) => {
    const convert = toEnumNames(field.type, seen);
    return convert ? [[field.name, convert] as const] : [];
  });
  if (!fields.length) return undefined;
  return (value) => {
    if (!value || typeof value !== 'object') return value;
    const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [name, convert] of fields) if (converted[name] != null) converted[name] = convert(converted[name]);
    return converted;
  };
}

function variableConverter(schema: GraphQLSchema, operation: OperationDefinitionNode) {
  const converters = (operation.variableDefinitions ?? []).flatMap((definition) => {
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    const convert = type && toEnumNames(type);
    return convert ? [[definition.variable.name.value, convert] as const] : [];
  });
  if (!converters.length) return (values: Record<string, unknown>) => values;
  return (values: Record<string, unknown>) => {
    const converted = { ...values };
    for (const [name, convert] of converters) if (converted[name] != null) converted[name] = convert(converted[name]);
    return converted;
  };
}

const asStored = (value: unknown) => value;

/**
 * Answers show an enum's wire value (`crm:read`), as REST bodies and events do,
 * not a renamed enum's GraphQL name. Every enum of the schema is a string enum
 * whose value is its wire value, read from columns the kit writes only with
 * checked values: shown as stored, without graphql-js's lookup per value (a
 * deals list serialized 20 stages per page through it).
 */
const wireValueSerializers = (schema: GraphQLSchema) =>
  Object.fromEntries(
    Object.values(schema.getTypeMap())
      .filter((type) => isEnumType(type) && !type.name.startsWith('__'))
      .map((type) => [type.name, asStored]),
  );

/** The operation parsed and validated against the schema; throws if a route's operation is wrong. */
export function checkOperation(schema: GraphQLSchema, source: string) {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`invalid REST operation ${source}: ${errors.map((e) => e.message).join('; ')}`);
  const operation = document.definitions[0] as OperationDefinitionNode;
  const selections = operation.selectionSet.selections;
  if (selections.length !== 1 || selections[0]!.kind !== 'Field') {
    throw new Error(`a REST operation selects exactly one root field: ${source}`);
  }
  return { document, operation, field: selections[0]! };
}

export function prepareOperation(schema: GraphQLSchema, source: string): PreparedOperation {
  const { document, operation, field } = checkOperation(schema, source);
  const compiled = compileQuery(schema, document, undefined, { customSerializers: wireValueSerializers(schema) });
  if (!isCompiledQuery(compiled)) throw new Error(`cannot compile REST operation ${source}`);
  const rootField = field.alias?.value ?? field.name.value;
  return {
    compiled,
    rootField,
    variablesOf: variableConverter(schema, operation),
    hidden: hiddenFieldsOf(schema, operation)?.below.get(rootField) ?? null,
  };
}

export async function runOperation(
  operation: PreparedOperation,
  variableValues: Record<string, unknown>,
  contextValue: Context,
): Promise<unknown> {
  const result = await operation.compiled.query(undefined, contextValue, operation.variablesOf(variableValues));
  if (result.errors?.length) throw domainErrorOf(result.errors[0]!);
  const data = result.data?.[operation.rootField];
  if (data === undefined) throw internalError(new Error(`no data for ${operation.rootField}`));
  // GraphQL answered null for them; a REST answer leaves the keys out.
  if (operation.hidden) removeHidden(data, operation.hidden, contextValue.principal?.scopes ?? new Set());
  return data;
}
