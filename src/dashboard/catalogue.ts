// The dashboard's catalogue: every declared resource (kit/declared.ts) as the
// record pages need it (its fields and their kinds, its create and update
// inputs, its list's sort and filters, its references both ways, its lifecycle
// and actions, how a record is named), read off the declaration and, where the
// declaration does not say it in one place, off the built GraphQL schema (the
// types of inputs and list arguments, enum values, relation fields another
// module adds). The page carries the part a viewer may read (page.ts), so a
// resource the kit adds gets its list, record, form and action pages with no
// dashboard code.
import { isEnumType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { hasScope, type Scope } from '../auth/scopes.js';
import { publicFieldsOf } from '../graphql/kit/fields.js';
import { words } from '../graphql/kit/references.js';
import { actionsOf, type Resource } from '../graphql/kit/resource.js';
import {
  fieldOf,
  inputFieldOf,
  inputFieldsOf,
  inputType,
  listArguments,
  objectType,
  unwrap,
} from './catalogue-fields.js';
import { labelFields } from './catalogue-labels.js';
import type { Catalogue, CatalogueAction, CatalogueRelation, CatalogueResource } from './catalogue-shape.js';

export { LABEL_FIELDS } from './catalogue-labels.js';

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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
