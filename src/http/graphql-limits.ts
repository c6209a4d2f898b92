// What one GraphQL operation may ask for, checked before anything runs, for
// every caller (with or without credentials) and for introspection too:
//
// - the document's size (here, before Apollo) and its tokens (graphql-js's own
//   parser limit, `parseOptions.maxTokens`): a huge document dies unparsed, and
//   a deeply nested one stops before the recursive parser can overflow its stack;
// - depth and aliases: GraphQL Armor's validation rules;
// - fields (with fragments expanded) and a cost that multiplies by list sizes:
//   graphql-query-complexity, per request because `limit` may be a variable.
//   An introspection (`__schema`, `__type`) answers from the schema in memory:
//   it costs at most half the limit whatever the schema's size, and
//   `__typename` costs nothing, so Apollo Client, which adds it to every
//   selection, introspects as any tool does.
//
// A refusal is a 400 VALIDATION_ERROR whose message names the limit.
import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  Kind,
  getNullableType,
  getVariableValues,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../graphql/kit/page.js';

export type GraphQLLimits = Config['graphqlLimits'];

/**
 * A refusal raised outside validation (document size, fields, cost): a 400
 * VALIDATION_ERROR through Apollo's error path and graphQLErrorFormatter.
 */
export function limitExceeded(message: string): GraphQLError {
  return new GraphQLError(message, {
    originalError: new DomainError('VALIDATION_ERROR', message),
    extensions: { http: { status: 400 } },
  });
}

/** Armor's rules report into the validation context (not throw), so Apollo answers 400. */
function reportTo(context: ValidationContext | null, error: GraphQLError) {
  // Armor prefixes its messages with "Syntax Error: ", which they are not.
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));
}

/** Depth (fragments flattened: the nesting of the answer) and aliases, as validation rules. */
export function limitValidationRules(limits: GraphQLLimits): ValidationRule[] {
  return [
    maxDepthRule({
      n: limits.maxDepth,
      ignoreIntrospection: false,
      flattenFragments: true,
      propagateOnRejection: false,
      onReject: [reportTo],
    }),
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: [reportTo] }),
  ] as ValidationRule[];
}

// graphql-query-complexity's own error when maxQueryNodes is reached.
const NODE_LIMIT_MESSAGE = 'Query exceeds the maximum allowed number of nodes.';

/** How many items an introspection list holds, on average, in this schema. */
function introspectionListSizes(schema: GraphQLSchema): Map<string, number> {
  const types = Object.values(schema.getTypeMap());
  const directives = schema.getDirectives();
  let fields = 0;
  let args = 0;
  let inputFields = 0;
  let enumValues = 0;
  let interfaces = 0;
  let possibleTypes = 0;
  for (const type of types) {
    if (isObjectType(type) || isInterfaceType(type)) {
      const typeFields = Object.values(type.getFields());
      fields += typeFields.length;
      for (const field of typeFields) args += field.args.length;
      interfaces += type.getInterfaces().length;
    }
    if (isInputObjectType(type)) inputFields += Object.keys(type.getFields()).length;
    if (isUnionType(type) || isInterfaceType(type)) possibleTypes += schema.getPossibleTypes(type).length;
    if (isEnumType(type)) enumValues += type.getValues().length;
  }
  for (const directive of directives) args += directive.args.length;
  const average = (total: number, count: number) => Math.max(1, Math.ceil(total / Math.max(count, 1)));
  const perField = average(args, fields + directives.length);
  return new Map([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', average(fields, types.length)],
    ['__Type.inputFields', average(inputFields, types.length)],
    ['__Type.enumValues', average(enumValues, types.length)],
    ['__Type.interfaces', average(interfaces, types.length)],
    ['__Type.possibleTypes', average(possibleTypes, types.length)],
    ['__Field.args', perField],
    ['__Directive.args', perField],
  ]);
}

/**
 * Each field costs 1 plus its selection; a field with a `limit` argument (a page)
 * costs its selection `limit` times (default 50, at most 100, as the services
 * apply them); introspection lists count their average size in this schema, so
 * nesting introspection multiplies as it would when run, up to `introspectionCost`
 * for each `__schema` or `__type`. `__typename` is free: no resolver runs for it.
 */
function costEstimator(schema: GraphQLSchema, introspectionCost: number): ComplexityEstimator {
  const listSizes = introspectionListSizes(schema);
  return ({ type, field, args, childComplexity }) => {
    if (field.name === '__typename') return 0;
    if (field.name === '__schema' || field.name === '__type') return Math.min(1 + childComplexity, introspectionCost);
    if (field.args.some((arg) => arg.name === 'limit')) {
      const limit = typeof args.limit === 'number' ? Math.min(Math.max(args.limit, 1), MAX_LIMIT) : DEFAULT_LIMIT;
      return 1 + limit * childComplexity;
    }
    const size = isListType(getNullableType(field.type)) ? listSizes.get(`${type.name}.${field.name}`) : undefined;
    return 1 + (size ?? 1) * childComplexity;
  };
}

const estimators = new WeakMap<GraphQLSchema, Map<number, ComplexityEstimator>>();

/**
 * The most one introspection (`__schema` or `__type`) costs: half the limit, so a
 * tool's full introspection fits whatever the schema's size (it is answered
 * from memory) and a document holds at most two.
 */
export const introspectionCostOf = (maxCost: number) => Math.floor(maxCost / 2);

/**
 * The cost of one operation with its variables. Throws a refusal past
 * `maxFields` selections (fragments expanded: the count stops there, so a
 * fragment bomb costs no more than that). Undefined when the variables are
 * invalid: execution then refuses them before any resolver runs.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
  { maxFields, maxCost }: Pick<GraphQLLimits, 'maxFields' | 'maxCost'>,
): number | undefined {
  const { errors } = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 });
  if (errors?.length) return undefined;
  let bySchema = estimators.get(schema);
  if (!bySchema) estimators.set(schema, (bySchema = new Map()));
  let estimator = bySchema.get(maxCost);
  if (!estimator) bySchema.set(maxCost, (estimator = costEstimator(schema, introspectionCostOf(maxCost))));
  // Only this operation (and the fragments), so no other operation is counted.
  const single: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [operation, ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)],
  };
  try {
    return getComplexity({
      schema,
      query: single,
      variables: variables ?? {},
      estimators: [estimator],
      // The library refuses on reaching the number, so one more allows exactly maxFields.
      maxQueryNodes: maxFields + 1,
    });
  } catch (error) {
    if (error instanceof GraphQLError && error.message === NODE_LIMIT_MESSAGE) {
      throw limitExceeded(`Field limit of ${maxFields} exceeded (fragments expanded).`);
    }
    if (error instanceof GraphQLError) throw limitExceeded(error.message);
    throw error;
  }
}

function costRefusal(cost: number | undefined, limits: GraphQLLimits): GraphQLError | undefined {
  if (cost === undefined || cost <= limits.maxCost) return undefined;
  return limitExceeded(
    `Query cost limit of ${limits.maxCost} exceeded, found ${cost} ` +
      `(a field costs 1 plus its selection, which a list counts \`limit\` times, ${DEFAULT_LIMIT} by default).`,
  );
}

/** Apollo plugin: fields and cost, once the operation and its variables are known. */
export function limitsPlugin(limits: GraphQLLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          // No operation (several and none named): execution refuses it without running anything.
          if (!operation) return;
          const cost = operationCost(schema, document, operation, request.variables, limits);
          const refusal = costRefusal(cost, limits);
          if (refusal) throw refusal;
        },
      };
    },
  };
}

/** Bytes of a document over the limit: a refusal before it is parsed. */
export function documentSizeRefusal(query: string, limits: GraphQLLimits): DomainError | undefined {
  const bytes = Buffer.byteLength(query);
  if (bytes <= limits.maxDocumentBytes) return undefined;
  return new DomainError(
    'VALIDATION_ERROR',
    `Document size limit of ${limits.maxDocumentBytes} bytes exceeded, found ${bytes}.`,
    'query',
  );
}

/**
 * Every limit, as /graphql applies them, on one document and its variables: the
 * refusals' messages (none when it passes) and its cost. For tests and checks of
 * fixed operations, such as those the REST facade runs.
 */
export function checkOperation(
  schema: GraphQLSchema,
  source: string,
  limits: GraphQLLimits,
  variables?: Record<string, unknown>,
): { refusals: string[]; cost?: number } {
  const tooLarge = documentSizeRefusal(source, limits);
  if (tooLarge) return { refusals: [tooLarge.message] };
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: limits.maxTokens });
  } catch (error) {
    return { refusals: [(error as Error).message] };
  }
  const invalid = validate(schema, document, [...specifiedRules, ...limitValidationRules(limits)]);
  if (invalid.length) return { refusals: invalid.map((error) => error.message) };
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) return { refusals: ['checkOperation takes a document with one operation'] };
  try {
    const cost = operationCost(schema, document, operations[0]!, variables, limits);
    if (cost === undefined) return { refusals: ['the variables are invalid'] };
    const refusal = costRefusal(cost, limits);
    return { refusals: refusal ? [refusal.message] : [], cost };
  } catch (error) {
    return { refusals: [(error as Error).message] };
  }
}
