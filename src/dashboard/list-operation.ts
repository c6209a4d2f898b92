// A resource's list as a dashboard address asks for it (`/crm/contacts?q=ada&page=2`):
// the GraphQL operation and its variables. Used by the browser's list page and by
// the server, which runs the same operation for the list a full load opens and
// writes its answer into the page (first-answer.ts), so both must build the very
// same text; hence one module, with no DOM, that both import. Every URL value is
// checked against the catalogue, so a hand-edited URL cannot break the page.
import type { Catalogue, CatalogueRelation, CatalogueResource } from './catalogue-shape.js';

/** The API's own default page: a person scrolls 50 rows faster than they page through two of 25. */
export const PAGE_SIZE = 50;

/** Newest first: the order a person expects of a list (a new record lands on the first page). */
export const NEWEST_FIRST = 'createdAt_desc';

/** The resources the viewer may read, by key: a related record is selected only from these. */
export type ResourceLookup = (key: string | undefined) => CatalogueResource | undefined;

export function catalogueLookup(catalogue: Catalogue): ResourceLookup {
  const byKey = new Map(catalogue.map((entry) => [entry.key, entry]));
  return (key) => (key === undefined ? undefined : byKey.get(key));
}

/** The fields a record's name is made of, and the state: what a related record is selected with. */
export function labelSelection(entry: CatalogueResource): string {
  const names = new Set(entry.label.flat());
  // Without a name of its own, a related record is told by its first date (recordLabel).
  const date = entry.fields.find((field) => field.kind === 'date');
  if (!names.size && date) names.add(date.name);
  if (entry.lifecycle) names.add(entry.lifecycle.field);
  return ['id', ...names].join(' ');
}

/** The GraphQL selection of a reference's record, when the viewer may read it. */
export function relationSelection(relation: CatalogueRelation, resourceOf: ResourceLookup): string {
  const target = resourceOf(relation.resource);
  return target ? `${relation.name} { ${labelSelection(target)} }` : '';
}

/** What a row of a list selects: its plain fields, the name of each record it refers to. */
export function rowSelection(entry: CatalogueResource, resourceOf: ResourceLookup): string {
  const plain = entry.fields.filter((field) => field.kind !== 'object' && field.kind !== 'objects');
  return [...plain.map((field) => field.name), ...entry.references.map((r) => relationSelection(r, resourceOf))]
    .filter(Boolean)
    .join(' ');
}

/** The filters the URL gives that the list takes, as GraphQL variables (booleans as booleans). */
export function filtersOf(entry: CatalogueResource, url: URLSearchParams): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const argument of entry.list) {
    const value = url.get(argument.name)?.trim();
    if (!value) continue;
    if (argument.kind === 'enum' && !argument.values?.includes(value)) continue;
    if (argument.kind === 'boolean') {
      if (value === 'true' || value === 'false') filters[argument.name] = value === 'true';
      continue;
    }
    if (argument.kind === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) continue;
    if (argument.kind === 'int') {
      if (/^-?\d+$/.test(value)) filters[argument.name] = Number(value);
      continue;
    }
    filters[argument.name] = value;
  }
  return filters;
}

export function sortOf(entry: CatalogueResource, url: URLSearchParams): string | undefined {
  const sort = url.get('sort');
  if (sort && entry.graphql.sortValues.includes(sort)) return sort;
  return entry.graphql.sortValues.includes(NEWEST_FIRST) ? NEWEST_FIRST : undefined;
}

/** The page's variables: page, size, sort and filters, in this order (the answer is keyed by their JSON). */
export function listVariables(entry: CatalogueResource, url: URLSearchParams): Record<string, unknown> {
  return { page: Number(url.get('page')) || 1, limit: PAGE_SIZE, sort: sortOf(entry, url), ...filtersOf(entry, url) };
}

export function listQuery(entry: CatalogueResource, resourceOf: ResourceLookup): string {
  const { many, sort } = entry.graphql;
  const declarations = [
    '$page: Int',
    '$limit: Int',
    `$sort: ${sort}`,
    ...entry.list.map((a) => `$${a.name}: ${a.type}`),
  ];
  const passed = ['page', 'limit', 'sort', ...entry.list.map((a) => a.name)].map((name) => `${name}: $${name}`);
  return `query ${entry.graphql.type}List(${declarations.join(', ')}) { ${many}(${passed.join(', ')}) {
    data { ${rowSelection(entry, resourceOf)} } pagination { page limit total } } }`;
}
