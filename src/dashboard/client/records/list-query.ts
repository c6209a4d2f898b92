// A resource's list as the URL asks for it: page, sort (newest first unless a
// column says otherwise) and the filters its list takes, each checked against
// the catalogue so a hand-edited URL cannot break the page; and the GraphQL
// query that reads it.
import type { CatalogueResource } from './catalogue.js';
import { rowSelection } from './catalogue.js';

/** The API's own default page: a person scrolls 50 rows faster than they page through two of 25. */
export const PAGE_SIZE = 50;

/** Newest first: the order a person expects of a list (a new record lands on the first page). */
export const NEWEST_FIRST = 'createdAt_desc';

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

export function listQuery(entry: CatalogueResource): string {
  const { many, sort } = entry.graphql;
  const declarations = [
    '$page: Int',
    '$limit: Int',
    `$sort: ${sort}`,
    ...entry.list.map((a) => `$${a.name}: ${a.type}`),
  ];
  const passed = ['page', 'limit', 'sort', ...entry.list.map((a) => a.name)].map((name) => `${name}: $${name}`);
  return `query ${entry.graphql.type}List(${declarations.join(', ')}) { ${many}(${passed.join(', ')}) {
    data { ${rowSelection(entry)} } pagination { page limit total } } }`;
}
