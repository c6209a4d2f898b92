// How the catalogue reads a resource's fields, inputs and list arguments off
// the built GraphQL schema (the kinds of values, enum values, input objects),
// with what the declarations add that the schema cannot say (an amount is
// money, an email is one, a value is computed).
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import type { z } from 'zod';
import { FIELD_KINDS, publicFieldsOf, type PublicField, type PublicType } from '../graphql/kit/fields.js';
import type { InputField as KitInputField } from '../graphql/kit/inputs.js';
import type { Resource } from '../graphql/kit/resource.js';
import type { CatalogueField, InputField, ListArgument, ValueKind } from './catalogue-shape.js';

/** The named type under any list and non-null wrappers, and whether a list was among them. */
export function unwrap(type: GraphQLOutputType | GraphQLInputType): { named: GraphQLNamedType; list: boolean } {
  let list = false;
  let current: GraphQLOutputType | GraphQLInputType = type;
  while (isNonNullType(current) || isListType(current)) {
    if (isListType(current)) list = true;
    current = current.ofType as GraphQLOutputType | GraphQLInputType;
  }
  return { named: current as GraphQLNamedType, list };
}

/** A scalar's kind by its GraphQL type; SafeInt is how the kit types minor units. */
const SCALAR_KINDS: Record<string, ValueKind> = {
  ID: 'id',
  String: 'text',
  Int: 'int',
  Float: 'number',
  Boolean: 'boolean',
  SafeInt: 'money',
  Date: 'date',
  DateTime: 'timestamp',
};

function scalarKind(named: GraphQLNamedType, list: boolean): ValueKind {
  if (isEnumType(named)) return 'enum';
  const kind = SCALAR_KINDS[named.name] ?? 'text';
  if (list) return kind === 'id' ? 'idList' : 'textList';
  return kind;
}

export const enumValues = (named: GraphQLNamedType) =>
  isEnumType(named) ? named.getValues().map((value) => String(value.value)) : undefined;

/** The GraphQL selection of an object type's fields, every level (as the kit's selectionOf). */
function selectionOfType(type: GraphQLObjectType, depth = 0): string {
  return Object.values(type.getFields())
    .filter((field) => field.args.length === 0)
    .map((field) => {
      const { named } = unwrap(field.type);
      if (!isObjectType(named)) return field.name;
      return depth < 3 ? `${field.name} { ${selectionOfType(named, depth + 1)} }` : '';
    })
    .filter(Boolean)
    .join(' ');
}

/** An object's fields: its public fields when the kit declares them (money kinds), else its GraphQL fields. */
function objectFields(type: GraphQLObjectType, item: PublicType | undefined, depth: number): CatalogueField[] {
  const declared = item ? new Map(publicFieldsOf(item).map((field) => [field.name, field])) : new Map();
  return Object.values(type.getFields())
    .filter((field) => field.args.length === 0)
    .map((field) => fieldOf(field, declared.get(field.name) as PublicField | undefined, depth + 1));
}

export function fieldOf(
  field: GraphQLField<unknown, unknown>,
  declared: PublicField | undefined,
  depth = 0,
): CatalogueField {
  const { named, list } = unwrap(field.type);
  const nullable = declared?.nullable ?? !isNonNullType(field.type);
  if (isObjectType(named)) {
    return {
      name: field.name,
      kind: list ? 'objects' : 'object',
      nullable,
      item: {
        fields: depth < 3 ? objectFields(named, declared?.kind.item, depth) : [],
        selection: selectionOfType(named),
      },
    };
  }
  let kind = scalarKind(named, list);
  if (declared?.kind.money) kind = 'money';
  else if (declared?.kind === FIELD_KINDS.email) kind = 'email';
  else if (kind === 'money') kind = 'int';
  // A decimal kept exact as a string (a percentage): text in GraphQL, a NUMERIC column.
  if (kind === 'text' && declared?.kind.column?.startsWith('NUMERIC')) kind = 'decimal';
  if (kind === 'int' && declared?.kind.column?.startsWith('NUMERIC')) kind = 'decimal';
  const values = declared?.kind.values ? [...declared.kind.values] : enumValues(named);
  return {
    name: field.name,
    kind,
    nullable,
    ...(values && { values }),
    ...(declared && declared.kind.column === null && { readOnly: true }),
  };
}

/** The enum values of a zod schema (a create's narrower `onCreate`), if it is one. */
function zodEnumValues(schema: z.ZodType | undefined): string[] | undefined {
  const def = schema?._zod.def as { type?: string; entries?: Record<string, string> } | undefined;
  return def?.type === 'enum' ? Object.values(def.entries ?? {}) : undefined;
}

export function inputFieldOf(
  field: GraphQLInputField,
  references: Record<string, string>,
  declared?: KitInputField,
  depth = 0,
): InputField {
  const { named, list } = unwrap(field.type);
  if (isInputObjectType(named)) {
    return {
      name: field.name,
      kind: list ? 'objects' : 'object',
      required: declared ? declared.required : isNonNullType(field.type),
      item: {
        fields:
          depth < 3
            ? Object.values(named.getFields()).map((inner) => inputFieldOf(inner, {}, undefined, depth + 1))
            : [],
      },
    };
  }
  const values = enumValues(named);
  const createValues = zodEnumValues(declared?.onCreate);
  const reference = references[field.name];
  return {
    name: field.name,
    kind: scalarKind(named, list),
    required: declared ? declared.required : isNonNullType(field.type),
    ...(declared && {
      clearable: !declared.required && (declared.default === undefined || declared.clearable === true),
    }),
    ...(values && { values }),
    ...(createValues && createValues.length !== values?.length && { createValues }),
    ...(reference && { reference }),
    ...(declared?.createOnly && { createOnly: true }),
    ...(declared?.updateOnly && { updateOnly: true }),
  };
}

export function inputType(schema: GraphQLSchema, name: string) {
  const type = schema.getType(name);
  if (!isInputObjectType(type)) throw new Error(`the schema has no input type ${name}`);
  return type;
}

export function objectType(schema: GraphQLSchema, name: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`the schema has no object type ${name}`);
  return type;
}

/** The input fields of create and update in one list, in the declaration's order. */
export function inputFieldsOf(schema: GraphQLSchema, resource: Resource, references: Record<string, string>) {
  const input = resource.input;
  if (!input) return undefined;
  const name = resource.type.name;
  const create = inputType(schema, `Create${name}Input`).getFields();
  const update = resource.operations.update ? inputType(schema, `Update${name}Input`).getFields() : {};
  return Object.entries(input.fields).flatMap(([field, declared]) => {
    const graphql = create[field] ?? update[field];
    if (!graphql) return [];
    // An updateOnly field is in the update's type only: it says the kind as well.
    return [inputFieldOf(graphql, references, declared)];
  });
}

/** The list arguments a person filters by: a search, enums, flags, dates and references. */
export function listArguments(
  query: GraphQLField<unknown, unknown>,
  references: Record<string, string>,
  fields: PublicField[],
): ListArgument[] {
  return (
    query.args
      // Paging and order are the list page's own (`after`: a cursor, which a page number does the work of here).
      .filter((arg) => !['page', 'limit', 'sort', 'after'].includes(arg.name))
      .map((arg): ListArgument => {
        const { named } = unwrap(arg.type);
        const values = enumValues(named);
        const base = { name: arg.name, type: named.name };
        if (arg.name === 'q') return { ...base, kind: 'search' };
        if (values) return { ...base, kind: 'enum', values };
        if (named.name === 'Boolean') return { ...base, kind: 'boolean' };
        if (named.name === 'Date') return { ...base, kind: 'date' };
        if (named.name === 'Int') return { ...base, kind: 'int' };
        // A filter on a reference field (`contactId`), or named like one on a field that is.
        const reference = references[arg.name];
        if (reference && fields.some((field) => field.name === arg.name))
          return { ...base, kind: 'reference', reference };
        return { ...base, kind: 'text' };
      })
  );
}
