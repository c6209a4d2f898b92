// A resource's input, written once as zod fields. From it come the create and
// update validation schemas (the one place rules live; REST checks bodies with
// them before executing) and the GraphQL input types `Create<Name>Input` and
// `Update<Name>Input`. The update derives from the create: every field becomes
// optional (omitted is kept); optional fields also take null (null clears);
// required fields cannot be cleared; create-only fields are unknown on update.
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, InputType, Int, type ClassType } from 'type-graphql';
import { z } from 'zod';
import { CalendarDate, DateTime } from './date-time.js';
import { fieldEnum } from './enums.js';
import type { GraphQLTypeFunction } from './fields.js';

export interface InputFieldOptions {
  description?: string;
  /** The GraphQL type, when it cannot be read off the zod schema (e.g. SafeInt). */
  graphql?: GraphQLTypeFunction;
  /** Present on create only (e.g. an API key's scopes, a user's initial password). */
  createOnly?: boolean;
  /** Present on update only: set by an action, corrected by a PUT (an attendance record's clockOut). */
  updateOnly?: boolean;
  /**
   * The schema on create when a create takes less than an update (a new deal
   * starts in an open stage): the create body and its document say so. The
   * GraphQL type stays the field's.
   */
  onCreate?: z.ZodType;
  /**
   * The value of an optional field a create omits (or gives as null), or store.ts's NOW for the
   * transaction's time; an update cannot clear it unless `clearable`.
   */
  default?: unknown;
  /** With a default: null in an update sets the default (tags: null clears to []). */
  clearable?: boolean;
  /**
   * false: not a column. The resource's rules take the value (an employee's
   * salary goes to its compensation history) and show it by a computed public
   * field; the kit writes the other fields of the create or update.
   */
  stored?: boolean;
}

export interface InputField<S extends z.ZodType = z.ZodType> extends InputFieldOptions {
  schema: S;
  required: boolean;
}

export const required = <S extends z.ZodType>(
  schema: S,
  options: InputFieldOptions = {},
): InputField<S> & { required: true } => ({
  schema,
  required: true,
  ...options,
});

export const optional = <S extends z.ZodType>(
  schema: S,
  options: InputFieldOptions = {},
): InputField<S> & { required: false } => ({
  schema,
  required: false,
  ...options,
});

type Fields = Record<string, InputField>;

type CreateShape<F extends Fields> = {
  [K in keyof F]: F[K]['required'] extends true ? F[K]['schema'] : z.ZodOptional<z.ZodNullable<F[K]['schema']>>;
};
type UpdateShape<F extends Fields> = {
  [K in keyof F]: z.ZodOptional<z.ZodNullable<F[K]['schema']>>;
};

export interface ResourceInput<F extends Fields = Fields> {
  fields: F;
  create: z.ZodObject<CreateShape<F>, z.core.$strict>;
  /** Create-only fields are absent at run time (an unknown field) though the type lists them; update-only ones likewise in `create`. */
  update: z.ZodObject<UpdateShape<F>, z.core.$strict>;
  CreateInput: ClassType;
  UpdateInput: ClassType;
}

/** Any resource's input, where only the parts' roles matter. */
export interface AnyResourceInput {
  fields: Fields;
  create: z.ZodType;
  update: z.ZodType;
  CreateInput: ClassType;
  UpdateInput: ClassType;
}

/** Which resource field a schema is for: names its enum, and `id`/`…Id` makes a string an ID. */
export interface FieldOf {
  resource: string;
  field: string;
}

const isIdName = (field: string) => field === 'id' || field.endsWith('Id');

/**
 * The GraphQL type of a zod schema: strings (an ID for `id`/`…Id`, a DateTime for
 * an ISO date-time, a Date for a calendar date), whole numbers, booleans, lists of them, and enums (the
 * resource's enum of that field, as its public field declares it).
 */
export function graphqlTypeOf(schema: z.ZodType, at?: FieldOf): GraphQLTypeFunction {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'string':
      if (def.format === 'datetime') return () => DateTime;
      if (def.format === 'date') return () => CalendarDate;
      return at && isIdName(at.field) ? () => ID : () => String;
    case 'enum': {
      const values = Object.values(def.entries as Record<string, string>);
      return (at && fieldEnum(at.resource, at.field, values)) ?? (() => String);
    }
    case 'boolean':
      return () => Boolean;
    case 'number':
      return (schema as z.ZodNumber).format === 'safeint' ? () => Int : () => Number;
    case 'bigint':
      return () => GraphQLSafeInt;
    case 'array': {
      const item = graphqlTypeOf(def.element as z.ZodType, at);
      return () => [item()] as never;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return graphqlTypeOf(def.innerType as z.ZodType, at);
    case 'pipe': {
      // A preprocess or transform: the typed end is the one that is not a transform.
      const [inner, outer] = [def.in as z.ZodType, def.out as z.ZodType];
      return graphqlTypeOf(inner._zod.def.type === 'transform' ? outer : inner, at);
    }
    default:
      throw new Error(`no GraphQL type for a zod ${def.type}; give one with { graphql }`);
  }
}

/** The value each create must store for a field it left out or gave as null: its default, or null. */
export function createValues(fields: Fields, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, field]) => !field.updateOnly)
      .map(([key, field]) => [key, data[key] ?? field.default ?? null]),
  );
}

/** The values of `values` that are columns: all but the fields declared `stored: false`. */
export function storedColumns(fields: Fields, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => fields[key]?.stored !== false));
}

/** An update's given fields as columns: null sets a clearable field's default. */
export function updateValues(fields: Fields, patch: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(patch)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, value === null && fields[key]?.clearable ? fields[key].default : value]),
  );
}

export function inputType(
  resource: string,
  name: string,
  fields: Fields,
  nullable: (field: InputField) => boolean,
  description?: string,
): ClassType {
  const type = { [name]: class {} }[name]!;
  for (const [key, field] of Object.entries(fields)) {
    Field(field.graphql ?? graphqlTypeOf(field.schema, { resource, field: key }), {
      nullable: nullable(field),
      description: field.description,
    })(type.prototype, key);
  }
  InputType(name, { description })(type);
  return type;
}

export function defineInput<F extends Fields>(name: string, fields: F): ResourceInput<F> {
  const creatable = Object.fromEntries(Object.entries(fields).filter(([, field]) => !field.updateOnly));
  const createShape = Object.fromEntries(
    Object.entries(creatable).map(([key, field]) => {
      const schema = field.onCreate ?? field.schema;
      return [key, field.required ? schema : schema.nullish()];
    }),
  );
  const updatable = Object.fromEntries(Object.entries(fields).filter(([, field]) => !field.createOnly));
  const updateShape = Object.fromEntries(
    Object.entries(updatable).map(([key, field]) => [
      key,
      field.required || (field.default !== undefined && !field.clearable)
        ? field.schema.optional()
        : field.schema.nullish(),
    ]),
  );
  return {
    fields,
    create: z.strictObject(createShape) as ResourceInput<F>['create'],
    update: z.strictObject(updateShape) as unknown as ResourceInput<F>['update'],
    CreateInput: inputType(name, `Create${name}Input`, creatable, (field) => !field.required),
    UpdateInput: inputType(name, `Update${name}Input`, updatable, () => true),
  };
}

/** What an action takes: its body's schema (as a create's: required and optional fields) and its GraphQL input. */
export interface ActionInput<I = Record<string, unknown>> {
  schema: z.ZodType<I>;
  InputType: ClassType;
  /** No field is required: the input may be left out. */
  optional: boolean;
}

/** The input of an action named `name` of `resource` (`TerminateEmployeeInput`). */
export function defineActionInput<F extends Fields>(
  resource: string,
  name: string,
  fields: F,
): ActionInput<z.output<z.ZodObject<CreateShape<F>>>> {
  const shape = Object.fromEntries(
    Object.entries(fields).map(([key, field]) => [key, field.required ? field.schema : field.schema.nullish()]),
  );
  const typeName = `${name[0]!.toUpperCase()}${name.slice(1)}${resource}Input`;
  return {
    schema: z.strictObject(shape) as never,
    InputType: inputType(resource, typeName, fields, (field) => !field.required),
    optional: Object.values(fields).every((field) => !field.required),
  };
}
