// The dashboard's catalogue: every declared resource (kit/declared.ts) as the
// record pages need it (its fields and their kinds, its create and update
// inputs, its list's sort and filters, its references both ways, its lifecycle
// and actions, how a record is named), read off the declaration and, where the
// declaration does not say it in one place, off the built GraphQL schema (the
// types of inputs and list arguments, enum values, relation fields another
// module adds). The page carries the part a viewer may read (page.ts), so a
// resource the kit adds gets its list, record, form and action pages with no
// dashboard code.
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
import { hasScope, type Scope } from '../auth/scopes.js';
import { FIELD_KINDS, publicFieldsOf, type PublicField, type PublicType } from '../graphql/kit/fields.js';
import type { InputField as KitInputField } from '../graphql/kit/inputs.js';
import { labelOf } from '../graphql/kit/labels.js';
import { words } from '../graphql/kit/references.js';
import { actionsOf, type Resource } from '../graphql/kit/resource.js';
import type {
  Catalogue,
  CatalogueAction,
  CatalogueField,
  CatalogueRelation,
  CatalogueResource,
  InputField,
  ListArgument,
  ValueKind,
} from './catalogue-shape.js';

/**
 * How the records of a resource whose declared label is SQL (labels.ts) are
 * named from their fields: the first group with a value (a contact without a
 * name is named by its email). A label declared without an entry here is named
 * by the columns its SQL reads, all of them (test/dashboard-catalogue.test.ts
 * checks each entry against its declaration).
 */
export const LABEL_FIELDS: Record<string, string[][]> = {
  contacts: [['firstName', 'lastName'], ['email']],
  employees: [['firstName', 'lastName']],
};

/** Text fields that name a record when its declaration says nothing (labels.ts's name and number first). */
const NAMING_FIELDS = ['name', 'number', 'title', 'code'];

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The columns a label's SQL reads, in order: `"t"."firstName"` -> firstName. */
function sqlColumns(sql: string, alias: string): string[] {
  const columns = [...sql.matchAll(new RegExp(`"${alias}"\\."?([A-Za-z_]\\w*)"?`, 'g'))].map((m) => m[1]!);
  return [...new Set(columns)];
}

function labelFields(key: string, resource: Resource): string[][] {
  if (LABEL_FIELDS[key]) return LABEL_FIELDS[key];
  if (resource.label) return [sqlColumns(resource.label.sql('_label'), '_label')];
  const label = labelOf(resource);
  if (label) return [[label.word]];
  const fields = publicFieldsOf(resource.type);
  const naming = NAMING_FIELDS.find((name) =>
    fields.some((field) => field.name === name && field.kind === FIELD_KINDS.text && !field.scope),
  );
  return naming ? [[naming]] : [];
}

/** The named type under any list and non-null wrappers, and whether a list was among them. */
function unwrap(type: GraphQLOutputType | GraphQLInputType): { named: GraphQLNamedType; list: boolean } {
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

const enumValues = (named: GraphQLNamedType) =>
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

function fieldOf(field: GraphQLField<unknown, unknown>, declared: PublicField | undefined, depth = 0): CatalogueField {
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

function inputFieldOf(
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

function inputType(schema: GraphQLSchema, name: string) {
  const type = schema.getType(name);
  if (!isInputObjectType(type)) throw new Error(`the schema has no input type ${name}`);
  return type;
}

function objectType(schema: GraphQLSchema, name: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`the schema has no object type ${name}`);
  return type;
}

/** The input fields of create and update in one list, in the declaration's order. */
function inputFieldsOf(schema: GraphQLSchema, resource: Resource, references: Record<string, string>) {
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
function listArguments(
  query: GraphQLField<unknown, unknown>,
  references: Record<string, string>,
  fields: PublicField[],
): ListArgument[] {
  return query.args
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
    });
}

interface Found {
  key: string;
  resource: Resource;
}

/**
 * The references of a resource: those it declares, and those another module
 * adds as relation fields (a department's manager: `manager` beside
 * `managerId`, of a declared resource's type).
 */
function referencesOf(found: Found, type: GraphQLObjectType, byType: Map<string, Found>): CatalogueRelation[] {
  const declared = Object.entries(found.resource.references).map(([field, reference]) => ({
    name: reference.name,
    field,
    resource: byType.get(reference.target.type.name)!.key,
  }));
  const fields = type.getFields();
  const added = Object.values(fields).flatMap((field) => {
    const { named, list } = unwrap(field.type);
    const target = byType.get(named.name);
    if (list || !target || !fields[`${field.name}Id`]) return [];
    if (declared.some((reference) => reference.name === field.name || reference.field === `${field.name}Id`)) return [];
    return [{ name: field.name, field: `${field.name}Id`, resource: target.key }];
  });
  return [...declared, ...added];
}

/** The resource's entry, without the inverses (added once every resource's references are known). */
function entryOf(schema: GraphQLSchema, found: Found, byType: Map<string, Found>): CatalogueResource {
  const { key, resource } = found;
  const name = resource.type.name;
  const type = objectType(schema, name);
  const declaredFields = publicFieldsOf(resource.type);
  const references = referencesOf(found, type, byType);
  const referenceByField = Object.fromEntries(references.map((reference) => [reference.field, reference.resource]));
  const graphqlFields = type.getFields();
  const fields = declaredFields.map((declared) => {
    const made = fieldOf(graphqlFields[declared.name]!, declared);
    const reference = referenceByField[declared.name];
    return reference ? { ...made, reference } : made;
  });
  const list = schema.getQueryType()!.getFields()[resource.names.many]!;
  const sort = unwrap(list.args.find((arg) => arg.name === 'sort')!.type).named;
  const mutations = schema.getMutationType()?.getFields() ?? {};
  const served = (mutation: string) => (mutations[mutation] ? mutation : undefined);
  const actions = Object.entries(actionsOf(resource)).map(([action, declared]): CatalogueAction => {
    const inputName = declared.input && `${upperFirst(action)}${name}Input`;
    return {
      name: action,
      label: upperFirst(words(action)),
      ...(declared.from && { from: [...declared.from] }),
      ...(declared.to && { to: declared.to }),
      mutation: `${action}${name}`,
      ...(inputName && {
        input: {
          type: inputName,
          optional: declared.input!.optional,
          fields: Object.values(inputType(schema, inputName).getFields()).map((field) =>
            inputFieldOf(field, referenceByField),
          ),
        },
      }),
    };
  });
  const { lifecycle } = resource;
  const input = inputFieldsOf(schema, resource, referenceByField);
  return {
    key,
    area: { title: resource.area.tag, read: resource.area.read, write: resource.area.write },
    path: resource.fullPath,
    noun: [words(resource.noun[0]), words(resource.noun[1])],
    graphql: {
      type: name,
      one: resource.names.one,
      many: resource.names.many,
      create: resource.input && served(`create${name}`),
      update: served(`update${name}`),
      delete: served(`delete${name}`),
      createInput: resource.input && `Create${name}Input`,
      updateInput: served(`update${name}`) && `Update${name}Input`,
      sort: sort.name,
      // GraphQL's names of them (`createdAt_desc`), which a query sends; the values inside are REST's.
      sortValues: isEnumType(sort) ? sort.getValues().map((value) => value.name) : [],
    },
    list: listArguments(list, referenceByField, declaredFields),
    fields,
    ...(input && { input }),
    references,
    inverses: [],
    ...(lifecycle && {
      lifecycle: {
        field: lifecycle.field,
        states: [...lifecycle.states],
        initial: lifecycle.initial,
        editableIn: [...lifecycle.editableIn],
        ...(lifecycle.deletableIn && { deletableIn: [...lifecycle.deletableIn] }),
      },
    }),
    actions,
    label: labelFields(key, resource),
  };
}

/**
 * The inverse of each reference: the page of referring records on the target
 * (`Contact.deals`), as the reference declares it, or, for a relation another
 * module adds, the target's one page field of the source's records left unclaimed.
 */
function addInverses(schema: GraphQLSchema, entries: CatalogueResource[], resources: Map<string, Found>): void {
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  for (const source of entries) {
    const declared = resources.get(source.key)!.resource.references;
    for (const reference of source.references) {
      const target = byKey.get(reference.resource)!;
      let name = declared[reference.field]?.inverse?.name;
      if (!declared[reference.field]) {
        const pages = Object.values(objectType(schema, target.graphql.type).getFields()).filter(
          (field) => unwrap(field.type).named.name === `${source.graphql.type}Page`,
        );
        const claimed = new Set(
          Object.values(resources.get(source.key)!.resource.references).map((known) => known.inverse?.name),
        );
        const unclaimed = pages.filter((field) => !claimed.has(field.name));
        name = unclaimed.length === 1 ? unclaimed[0]!.name : undefined;
      }
      if (name) target.inverses.push({ name, resource: source.key, field: reference.field });
    }
  }
}

/** The catalogue of these resources (by key), as the schema serves them. */
export function buildCatalogue(resources: ReadonlyMap<string, Resource>, schema: GraphQLSchema): Catalogue {
  const found = new Map([...resources].map(([key, resource]) => [key, { key, resource }]));
  const byType = new Map([...found.values()].map((entry) => [entry.resource.type.name, entry]));
  const entries = [...found.values()].map((entry) => entryOf(schema, entry, byType));
  addInverses(schema, entries, found);
  return entries;
}

/** The fields of each resource that a field scope hides from this viewer (a salary without hr:payroll). */
function scopedFields(resources: ReadonlyMap<string, Resource>, scopes: ReadonlySet<string>): Map<string, Set<string>> {
  return new Map(
    [...resources].map(([key, resource]) => [
      key,
      new Set(
        publicFieldsOf(resource.type)
          .filter((field) => field.scope && !hasScope(scopes, field.scope))
          .map((field) => field.name),
      ),
    ]),
  );
}

/**
 * What a viewer may read of the catalogue: the resources of the areas its
 * scopes read, without the fields a field scope hides from it; relations to a
 * resource it cannot read stay (their ids show), the pages just do not link them.
 */
export function catalogueFor(
  catalogue: Catalogue,
  resources: ReadonlyMap<string, Resource>,
  scopes: ReadonlySet<string>,
): Catalogue {
  const hidden = scopedFields(resources, scopes);
  return catalogue
    .filter((entry) => hasScope(scopes, entry.area.read as Scope))
    .map((entry) => {
      const gone = hidden.get(entry.key)!;
      if (!gone.size) return entry;
      return {
        ...entry,
        fields: entry.fields.filter((field) => !gone.has(field.name)),
        input: entry.input?.filter((field) => !gone.has(field.name)),
      };
    });
}
