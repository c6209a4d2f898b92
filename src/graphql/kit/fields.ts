// A record's public shape, written once. `@Public.text()` and friends declare a
// field of an @ObjectType; from that one declaration the kit derives the
// GraphQL field, the public object made from a database row (REST body, GraphQL
// value, event data.object), the REST selection, the OpenAPI response schema
// and the SQL of the list fast path (field-sql.ts), and the column the migration gives it
// (graphql/kit/declared-table.ts). Every field is a column of the same name, but
// for a list of objects read by a subquery (`objectList`) or within its parent's
// JSON (`objectList`, `objectOf` without SQL) and a value `computed` from other
// columns; `storedObjectList` is a JSONB column. A field declared with a `scope`
// (`@Public.money({ scope: 'hr:payroll' })`, a salary) is shown only to holders
// of that scope: see field-scopes.ts for where it is enforced.
import { GraphQLSafeInt } from 'graphql-scalars';
import { Extensions, Field, ID, Int } from 'type-graphql';
import { z } from 'zod';
import { SCOPES, type Scope } from '../../auth/scopes.js';
import { CalendarDate, DateTime } from './date-time.js';
import { fieldEnum } from './enums.js';
import { ScopeEnum } from './wire-enums.js';

/** type-graphql's type function (its ReturnTypeFunc, which the package does not export). */
export type GraphQLTypeFunction = NonNullable<Parameters<typeof Field>[0]> & (() => unknown);

/** How one kind of value is shown in GraphQL, OpenAPI, SQL and JavaScript. */
export interface FieldKind {
  /** The type function for type-graphql's @Field. */
  graphql: GraphQLTypeFunction;
  /** The value's shape in the OpenAPI document. */
  schema: () => z.ZodType;
  /** The SQL expression that yields the field in its public form (`table`: the record's, for a subquery). */
  sql(column: string, table: string): string;
  /** The public form of the value read from the database (null stays null). */
  fromRow(value: unknown): unknown;
  /** The SQL type of its column (CREATE TABLE); null: not a column (objectList, computed). */
  column: string | null;
  /** For one of a fixed set of strings: the set (the field's GraphQL type is then an enum). */
  values?: readonly [string, ...string[]];
  /** For objects: the GraphQL selection of their fields (what a REST answer contains). */
  selection?: () => string;
  /** For objects: their public type (what an export reads the amounts of). */
  item?: PublicType;
  /** Integer minor units of a currency (an export may write them in major units: export/amounts.ts). */
  money?: true;
}

const same = (value: unknown) => value;

/** A timestamptz expression as the API writes timestamps: ISO 8601 UTC with milliseconds. */
export const isoTimestamp = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const FIELD_KINDS = {
  id: { graphql: () => ID, schema: () => z.string(), sql: (c) => c, fromRow: same, column: 'TEXT' },
  text: { graphql: () => String, schema: () => z.string(), sql: (c) => c, fromRow: same, column: 'TEXT' },
  email: { graphql: () => String, schema: () => z.email(), sql: (c) => c, fromRow: same, column: 'TEXT' },
  int: { graphql: () => Int, schema: () => z.int(), sql: (c) => c, fromRow: same, column: 'INTEGER' },
  boolean: { graphql: () => Boolean, schema: () => z.boolean(), sql: (c) => c, fromRow: same, column: 'BOOLEAN' },
  /** Integer minor units in a bigint column: exact up to 2^53 - 1. */
  money: {
    graphql: () => GraphQLSafeInt,
    schema: () => z.int(),
    sql: (c) => `${c}::float8`,
    fromRow: (v) => Number(v),
    column: 'BIGINT',
    money: true,
  },
  textList: {
    graphql: () => [String],
    schema: () => z.array(z.string()),
    sql: (c) => c,
    fromRow: same,
    column: 'TEXT[]',
  },
  idList: { graphql: () => [ID], schema: () => z.array(z.string()), sql: (c) => c, fromRow: same, column: 'TEXT[]' },
  /** Millisecond ISO 8601 UTC, formatted by PostgreSQL exactly as Date#toISOString does. */
  timestamp: {
    graphql: () => DateTime,
    schema: () => z.iso.datetime().describe('ISO 8601 UTC timestamp'),
    sql: isoTimestamp,
    fromRow: (v) => (v as Date).toISOString(),
    column: 'TIMESTAMPTZ(3)',
  },
  /** A calendar date, YYYY-MM-DD. */
  date: {
    graphql: () => CalendarDate,
    schema: () => z.iso.date().describe('YYYY-MM-DD'),
    sql: (c) => `to_char(${c}, 'YYYY-MM-DD')`,
    fromRow: (v) => (v as Date).toISOString().slice(0, 10),
    column: 'DATE',
  },
} satisfies Record<string, FieldKind>;

/**
 * A kind for one of a fixed set of strings: an OpenAPI enum, and a GraphQL enum
 * named after the type and field (`Deal.stage` is `DealStage`) when every value
 * can be a GraphQL name (else String).
 */
export function oneOf(values: readonly [string, ...string[]]): FieldKind {
  return { graphql: () => String, schema: () => z.enum(values), sql: (c) => c, fromRow: same, column: 'TEXT', values };
}

/** The GraphQL type of a field of `type`: its kind's, or the enum of its values. */
function graphqlTypeOfField(typeName: string, field: string, kind: FieldKind): GraphQLTypeFunction {
  return (kind.values && fieldEnum(typeName, field, kind.values)) ?? kind.graphql;
}

/** The SQL of an object field declared without its own: it is read inside its parent's JSON only. */
const withinParent = (item: PublicType) => () => {
  throw new Error(`${item.name} is read within its parent's JSON only: give its field's sql to read it as a column`);
};

/**
 * A list of objects of a public `item` type read with the record, not a column:
 * `sql(table)` is a correlated subquery yielding a JSON array of them in their
 * public shape (a payroll run's items). Read by the same select list as every
 * field, so the API's answer and an event's data.object show the same list.
 * Without `sql`, a list inside another object that its parent's JSON holds
 * whole (a payroll item's lines).
 */
export function objectList(item: PublicType, sql: (table: string) => string = withinParent(item)): FieldKind {
  return {
    graphql: () => [item],
    schema: () => z.array(responseSchemaOf(item)),
    sql: (_column, table) => sql(table),
    fromRow: same,
    column: null,
    selection: () => selectionOf(item),
    item,
  };
}

/**
 * A list of objects of a public `item` type stored whole in a JSONB column of
 * the record (a payroll run's skipped employees, each with why): a rule writes
 * it as JSON text (`JSON.stringify`), and it is read as it is.
 */
export function storedObjectList(item: PublicType): FieldKind {
  return { ...objectList(item), sql: (column) => column, column: 'JSONB' };
}

/**
 * One object of a public `item` type, as `objectList` a list: its GraphQL type,
 * OpenAPI component and subselection; without `sql`, held whole by its parent's
 * JSON (a payroll item's basis).
 */
export function objectOf(item: PublicType, sql: (table: string) => string = withinParent(item)): FieldKind {
  return { ...objectList(item, sql), graphql: () => item, schema: () => responseSchemaOf(item) };
}

/**
 * A value of `kind` computed from the record's columns by `sql(table)` in the
 * select list (an invoice's amount due), never stored: not a column.
 */
export function computed(kind: FieldKind, sql: (table: string) => string): FieldKind {
  return { ...kind, sql: (_column, table) => sql(table), column: null };
}

/** A list of scope names (GraphQL [Scope], OpenAPI an array of the scope enum). */
export const scopeListKind: FieldKind = {
  ...FIELD_KINDS.textList,
  graphql: () => [ScopeEnum],
  schema: () => z.array(z.enum(SCOPES)),
};

export interface PublicFieldOptions {
  nullable?: boolean;
  description?: string;
  /**
   * The scope needed to see (and set) the field: without it the field is absent
   * from REST answers, exports and events' data (webhooks deliver with their own
   * scopes), null in GraphQL (so the field is nullable there), and a create or
   * update that gives it is 403. `admin` implies it, as every scope.
   */
  scope?: Scope;
}

export interface PublicField {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  description?: string;
  /** Who may see and set it (PublicFieldOptions.scope); undefined: whoever reads the record. */
  scope?: Scope;
}

/** The GraphQL field extension that marks a field readable only with a scope (field-scopes.ts reads it). */
export interface ReadScopeExtension {
  readScope: Scope;
}

/** What a scoped field's description adds, in every document that shows it. */
export const scopedFieldNote = (scope: Scope) =>
  `Needs the \`${scope}\` scope: without it the field is absent from REST answers, exports and event data, ` +
  'and null in GraphQL.';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const registry = new Map<Function, PublicField[]>();

/** Declares a public field: the GraphQL field and its entry in the kit's registry. */
export function publicField(kind: FieldKind, options: PublicFieldOptions = {}): PropertyDecorator {
  return (prototype, property) => {
    const name = String(property);
    const nullable = options.nullable ?? false;
    const { scope } = options;
    const description = scope
      ? [options.description, scopedFieldNote(scope)].filter(Boolean).join(' ')
      : options.description;
    const fields = registry.get(prototype.constructor) ?? [];
    fields.push({ name, kind, nullable, description, ...(scope && { scope }) });
    registry.set(prototype.constructor, fields);
    const type = graphqlTypeOfField(prototype.constructor.name, name, kind);
    // A scoped field is null in GraphQL for those without its scope, so it is nullable there.
    Field(type, { nullable: nullable || scope !== undefined, description })(prototype, property);
    if (scope) Extensions({ readScope: scope } satisfies ReadScopeExtension)(prototype, property);
  };
}

type KindName = keyof typeof FIELD_KINDS;

/** `@Public.text({ nullable: true })`, `@Public.timestamp()`, `@Public.of(oneOf([...]))`. */
export const Public = {
  ...(Object.fromEntries(
    Object.entries(FIELD_KINDS).map(([name, kind]) => [
      name,
      (options?: PublicFieldOptions) => publicField(kind, options),
    ]),
  ) as Record<KindName, (options?: PublicFieldOptions) => PropertyDecorator>),
  scopes: (options?: PublicFieldOptions) => publicField(scopeListKind, options),
  of: (kind: FieldKind, options?: PublicFieldOptions) => publicField(kind, options),
};

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type PublicType<T = unknown> = Function & { prototype: T; name: string };

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const inherited = new Map<Function, PublicField[]>();

/**
 * The type's public fields, a parent class's first: `class NewThing extends Thing`
 * adds fields to Thing's (as type-graphql's own inheritance does for the GraphQL type).
 */
export function publicFieldsOf(type: PublicType): PublicField[] {
  let fields = inherited.get(type);
  if (!fields) {
    const parent = Object.getPrototypeOf(type) as PublicType;
    fields = [
      ...(registry.has(parent) || inherited.has(parent) ? publicFieldsOf(parent) : []),
      ...(registry.get(type) ?? []),
    ];
    if (!fields.length) throw new Error(`${type.name} declares no public fields`);
    inherited.set(type, fields);
  }
  return fields;
}

/** The type's fields that need a scope to be seen (PublicFieldOptions.scope), with it. */
export function scopedFieldsOf(type: PublicType): { name: string; scope: Scope }[] {
  return publicFieldsOf(type).flatMap(({ name, scope }) => (scope ? [{ name, scope }] : []));
}

/** The public object of a database row: the one shape REST, GraphQL and events show. */
export function toPublic<T>(type: PublicType<T>, row: object): T {
  const values = row as Record<string, unknown>;
  const object: Record<string, unknown> = {};
  for (const { name, kind } of publicFieldsOf(type)) {
    const value = values[name];
    object[name] = value === null || value === undefined ? null : kind.fromRow(value);
  }
  return object as T;
}

/** The GraphQL selection of every public field: what a REST answer contains. */
export function selectionOf(type: PublicType): string {
  return publicFieldsOf(type)
    .map(({ name, kind }) => (kind.selection ? `${name} { ${kind.selection()} }` : name))
    .join(' ');
}

const schemas = new Map<PublicType, z.ZodType>();

/** The OpenAPI schema of the public object, registered as a component named after the type. */
export function responseSchemaOf(type: PublicType): z.ZodType {
  let schema = schemas.get(type);
  if (!schema) {
    const shape = Object.fromEntries(
      publicFieldsOf(type).map(({ name, kind, nullable, description, scope }) => {
        let field = kind.schema();
        if (nullable) field = field.nullable();
        // Absent from the answers of callers without the scope: not a required property.
        if (scope) field = field.optional();
        if (description) field = field.describe(description);
        return [name, field];
      }),
    );
    schema = z.object(shape).meta({ id: type.name });
    schemas.set(type, schema);
  }
  return schema;
}
