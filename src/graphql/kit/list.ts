// A resource's list arguments, written once: page/limit, `sort` over named
// fields, and filters. From them come the validation schema (REST query and
// GraphQL arguments alike), the GraphQL ArgsType, the REST operation's variable
// declarations, and the SQL WHERE/ORDER BY of the list fast path.
//
// In GraphQL, `sort` is the enum `<Name>Sort`: `createdAt` ascending and
// `createdAt_desc` descending (an enum value cannot start with `-`), whose
// values inside are REST's `createdAt` and `-createdAt`: resolvers and services
// see one spelling, and REST's query turns into the enum's names (`variablesOf`).
import { ArgsType, Field, Int, type ClassType } from 'type-graphql';
import { z } from 'zod';
import { enumNameOf, graphqlEnum } from './enums.js';
import { graphqlTypeOf } from './inputs.js';
import { pageSchema } from './page.js';
import { type GraphQLTypeFunction } from './fields.js';
import { qualifiedColumn } from './field-sql.js';

export interface Filter<S extends z.ZodType = z.ZodType> {
  schema: S;
  description: string;
  /** The SQL condition on this filter's parameter, e.g. (p) => `email = ${p}`; `$1` is the organization's id. */
  where(param: string): string;
  /** The parameter's value from the parsed filter (default: as parsed). */
  value?(parsed: z.output<S>): unknown;
  /** The GraphQL type, when the schema's is not the one (default: read off the schema, see graphqlTypeOf). */
  graphql?: GraphQLTypeFunction;
  /**
   * A text search (`searchOver`): the table holds its expression lowered in a
   * stored generated column, with a trigram GIN index on ("organizationId",
   * <column>), checked by test/migrations.test.ts and written by `npm run
   * migration:create` (kit/declared-table.ts).
   */
  searched?: Searched;
}

/** What a search reads: the expression searched, and the column holding it lowered. */
export interface Searched {
  expression: string;
  column: string;
}

export const filter = <S extends z.ZodType>(schema: S, options: Omit<Filter<S>, 'schema'>): Filter<S> => ({
  schema,
  ...options,
});

type Filters = Record<string, Filter>;

export interface ListDefinition<F extends Filters, S extends string> {
  /** Validates REST query strings and GraphQL arguments alike; any other parameter is refused. */
  schema: z.ZodObject<
    (typeof pageSchema)['shape'] & { sort: z.ZodOptional<z.ZodEnum> } & {
      [K in keyof F]: z.ZodOptional<F[K]['schema']>;
    },
    z.core.$strict
  >;
  /** The GraphQL arguments: page, limit, after, sort and each filter. */
  Args: ClassType;
  /** `$page: Int, $limit: Int, ...` and `page: $page, ...`, for the REST operation. */
  variables: { declarations: string; arguments: string };
  /** The REST operation's variables from the parsed query: `sort=-createdAt` becomes `createdAt_desc`. */
  variablesOf(query: Record<string, unknown>): Record<string, unknown>;
  sortFields: readonly S[];
  filters: F;
}

/** Any resource's list definition, where only the parts' roles matter. */
export interface AnyListDefinition {
  schema: z.ZodType;
  Args: ClassType;
  variables: { declarations: string; arguments: string };
  variablesOf(query: Record<string, unknown>): Record<string, unknown>;
  sortFields: readonly string[];
  filters: Filters;
}

/** What `sort` takes, for the OpenAPI document. */
const sortDescription = (fields: readonly string[]) =>
  `A field to order by (${fields.join(', ')}), ascending; prefixed with \`-\` descending.`;

/** The GraphQL name of a REST sort value: `createdAt`, `-createdAt` -> `createdAt_desc`. */
export const sortValueName = (value: string) => (value.startsWith('-') ? `${value.slice(1)}_desc` : value);

export interface ListOptions<F extends Filters, S extends string> {
  /** Fields `sort` accepts (each a column); `-` prefix for descending. Default order: createdAt, id. */
  sort: readonly S[];
  filters: F;
}

export function defineList<F extends Filters, S extends string>(
  name: string,
  { sort, filters }: ListOptions<F, S>,
): ListDefinition<F, S> {
  const sortValues = [...sort, ...sort.map((field) => `-${field}`)] as [string, ...string[]];
  // Strict: a parameter the list does not take is a 400 naming it, not a filter silently dropped.
  const schema = z.strictObject({
    ...pageSchema.shape,
    sort: z
      .enum(sortValues, { message: `must be one of ${sort.join(', ')}, optionally prefixed with -` })
      .optional()
      .meta({ description: `${sortDescription(sort)} Default: createdAt, oldest first; id breaks ties.` }),
    ...Object.fromEntries(
      Object.entries(filters).map(([key, f]) => [key, f.schema.optional().meta({ description: f.description })]),
    ),
  });

  const Args = { [`${name}ListArgs`]: class {} }[`${name}ListArgs`]!;
  const Sort = graphqlEnum(
    `${name}Sort`,
    sort.flatMap((field) => [field, `-${field}`]),
    {
      description: `The order of a ${name} list: a field ascending, or \`<field>_desc\` descending; then by id.`,
      valueNames: sortValueName,
      valueDescriptions: (value) =>
        `By ${value.replace(/^-/, '')}, ${value.startsWith('-') ? 'descending' : 'ascending'} (REST: sort=${value}).`,
    },
  );
  const argTypes: [string, GraphQLTypeFunction, string][] = [
    ['page', () => Int, 'From 1; default 1.'],
    ['limit', () => Int, '1 to 100; default 50.'],
    ['after', () => String, "The page after this cursor (a previous page's pagination.next); not with page."],
    ['sort', () => Sort, 'Default: createdAt, oldest first.'],
    ...Object.entries(filters).map(([key, f]): [string, GraphQLTypeFunction, string] => [
      key,
      f.graphql ?? graphqlTypeOf(f.schema, { resource: name, field: key }),
      f.description,
    ]),
  ];
  for (const [key, type, description] of argTypes) {
    Field(type, { nullable: true, description })(Args.prototype, key);
  }
  ArgsType()(Args);

  // Int, ID and DateTime are GraphQL types with a name; String is JavaScript's; enums are plain objects.
  const graphqlName = (key: string, type: GraphQLTypeFunction) => {
    const value = type() as { name?: string };
    const typeName = value === String ? 'String' : (enumNameOf(value) ?? value.name);
    if (!typeName) throw new Error(`no GraphQL type name for ${name} list argument ${key}`);
    return typeName;
  };
  return {
    schema: schema as unknown as ListDefinition<F, S>['schema'],
    Args,
    variables: {
      declarations: argTypes.map(([key, type]) => `$${key}: ${graphqlName(key, type)}`).join(', '),
      arguments: argTypes.map(([key]) => `${key}: $${key}`).join(', '),
    },
    variablesOf: (query) =>
      typeof query.sort === 'string' ? { ...query, sort: sortValueName(query.sort) } : { ...query },
    sortFields: sort,
    filters,
  };
}

export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The organization's rows, narrowed by each filter given. */
export function whereOf(
  list: Pick<AnyListDefinition, 'filters'>,
  organizationId: string,
  parsed: Record<string, unknown>,
  table: string,
): SqlCondition {
  const params: unknown[] = [organizationId];
  const conditions = [`${qualifiedColumn(table, 'organizationId')} = $1`];
  for (const [key, f] of Object.entries(list.filters)) {
    const value = parsed[key];
    if (value === undefined) continue;
    params.push(f.value ? f.value(value) : value);
    conditions.push(f.where(`$${params.length}`));
  }
  return { sql: conditions.join(' and '), params };
}

/** createdAt then id by default; a sort field, then id, in the same direction. Nulls sort last ascending. */
export function orderOf(table: string, sort: string | undefined): string {
  const field = sort?.replace(/^-/, '') ?? 'createdAt';
  const direction = sort?.startsWith('-') ? 'desc' : 'asc';
  return `${qualifiedColumn(table, field)} ${direction}, ${qualifiedColumn(table, 'id')} ${direction}`;
}

/** `%` and `_` in search text are literal in LIKE (and ILIKE). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The expression a resource's `q` searches: its text columns joined by spaces,
 * nullable ones coalesced. Its migration stores it lowered in a generated column
 * (SEARCH_COLUMN) indexed, with the organization, in a trigram GIN index, so a
 * search reads the index, not the organization's rows (`npm run migration:create`
 * writes them):
 *   ALTER TABLE "Thing" ADD COLUMN "searchText" TEXT GENERATED ALWAYS AS
 *     (lower(coalesce("Thing"."a", '') || ' ' || "Thing"."b")) STORED;
 *   CREATE INDEX "Thing_search_idx" ON "Thing" USING gin ("organizationId", "searchText" gin_trgm_ops)
 */
export function searchExpression(table: string, columns: { name: string; nullable: boolean }[]): string {
  return columns
    .map(({ name, nullable }) => {
      const column = qualifiedColumn(table, name);
      return nullable ? `coalesce(${column}, '')` : column;
    })
    .join(` || ' ' || `);
}

/** The stored generated column a table's `q` reads: its search expression, lowered. */
export const SEARCH_COLUMN = 'searchText';

interface SearchOptions {
  description: string;
  schema: z.ZodType<string>;
  /** The generated column holding the expression lowered (default SEARCH_COLUMN; one per search of a table). */
  column?: string;
}

/**
 * A case-insensitive substring search over a text `expression` of the table's
 * columns (`%` and `_` are literal). It reads the expression lowered once on
 * write, in a stored generated column, with LIKE on the lowered pattern: in a
 * multibyte database that is what ILIKE does row by row (lower both, then
 * LIKE), so the rows found are the same, at a quarter of the CPU per row
 * examined (docs/decisions.md, "Search and cursor pages at a million rows").
 */
export function searchOver(
  table: string,
  expression: string,
  { description, schema, column = SEARCH_COLUMN }: SearchOptions,
): Filter<z.ZodType<string>> {
  return filter(schema, {
    description,
    where: (p) => `${qualifiedColumn(table, column)} like lower(${p})`,
    value: likePattern,
    searched: { expression, column },
  });
}

/** The `q` filter: searchOver the searchExpression of these columns. */
export function searchFilter(
  table: string,
  columns: { name: string; nullable: boolean }[],
  options: SearchOptions,
): Filter<z.ZodType<string>> {
  return searchOver(table, searchExpression(table, columns), options);
}
