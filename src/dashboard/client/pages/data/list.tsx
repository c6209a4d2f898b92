// One list page for any paged GraphQL list (`{ data, pagination }`): columns
// declared per resource, sort by clicking a column header, paging, and an
// optional search and filter, all kept in the URL query so a list can be
// linked to and comes back as it was.
import type { ComponentChildren } from 'preact';
import { setQuery, useLocation } from '../../route.js';
import { Field, Link, Loaded, Pager, PageHeader, Select, useQuery } from '../../ui.js';

export interface Column<T> {
  label: string;
  /** The sort enum's value for this column (`name`; `name_desc` is its reverse). */
  sort?: string;
  number?: boolean;
  render: (row: T) => ComponentChildren;
}

export interface ListSpec<T> {
  title: string;
  /** The Query field: `contacts`. */
  field: string;
  /** The GraphQL sort enum: `ContactSort`. */
  sortType: string;
  /** The fields of a row to select. */
  selection: string;
  columns: Column<T>[];
  /** The row's own page, linked from its first cell. */
  href?: (row: T) => string;
  /** A text search argument `q`. */
  search?: boolean;
  /** An enum filter argument: `stage: DealStage`. */
  filter?: { name: string; type: string; label: string; options: readonly string[] };
  limit?: number;
}

interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number };
}

function listQuery(spec: ListSpec<unknown>): string {
  const args = ['$page: Int', '$limit: Int', `$sort: ${spec.sortType}`];
  const pass = ['page: $page', 'limit: $limit', 'sort: $sort'];
  if (spec.search) {
    args.push('$q: String');
    pass.push('q: $q');
  }
  if (spec.filter) {
    args.push(`$${spec.filter.name}: ${spec.filter.type}`);
    pass.push(`${spec.filter.name}: $${spec.filter.name}`);
  }
  return `query List(${args.join(', ')}) { ${spec.field}(${pass.join(', ')}) { data { ${spec.selection} } pagination { page limit total } } }`;
}

export function ListPage<T extends { id: string }>({
  spec,
  actions,
}: {
  spec: ListSpec<T>;
  actions?: ComponentChildren;
}) {
  const { query: url } = useLocation();
  const sort = url.get('sort') ?? undefined;
  const variables: Record<string, unknown> = {
    page: Number(url.get('page')) || 1,
    limit: spec.limit ?? 20,
    // Only the sorts the columns declare reach the server: a hand-edited URL cannot break the page.
    sort: spec.columns.some((c) => c.sort && (sort === c.sort || sort === `${c.sort}_desc`)) ? sort : undefined,
  };
  if (spec.search) variables.q = url.get('q') || undefined;
  if (spec.filter) {
    const value = url.get(spec.filter.name);
    variables[spec.filter.name] = value && spec.filter.options.includes(value) ? value : undefined;
  }
  const result = useQuery<Record<string, Page<T>>>(listQuery(spec as ListSpec<unknown>), variables);
  return (
    <>
      <PageHeader title={spec.title}>{actions}</PageHeader>
      {(spec.search || spec.filter) && <ListFilters spec={spec as ListSpec<unknown>} />}
      <Loaded query={result}>
        {(data) => <Table spec={spec} page={data[spec.field]!} sort={variables.sort as string | undefined} />}
      </Loaded>
    </>
  );
}

function ListFilters({ spec }: { spec: ListSpec<unknown> }) {
  const { query: url } = useLocation();
  const onSearch = (event: Event) => {
    event.preventDefault();
    const q = new FormData(event.currentTarget as HTMLFormElement).get('q');
    setQuery({ q: typeof q === 'string' ? q.trim() : undefined, page: undefined });
  };
  return (
    <div class="toolbar">
      {spec.search && (
        <form role="search" class="toolbar" onSubmit={onSearch} aria-label={`Search ${spec.title.toLowerCase()}`}>
          <Field label="Search" name="q" type="search" defaultValue={url.get('q') ?? ''} key={url.get('q') ?? ''} />
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
      )}
      {spec.filter && (
        <Select
          label={spec.filter.label}
          name={spec.filter.name}
          value={url.get(spec.filter.name) ?? ''}
          options={[{ value: '', label: 'All' }, ...spec.filter.options]}
          onChange={(event) => setQuery({ [spec.filter!.name]: event.currentTarget.value, page: undefined })}
        />
      )}
    </div>
  );
}

function Table<T extends { id: string }>({ spec, page, sort }: { spec: ListSpec<T>; page: Page<T>; sort?: string }) {
  if (!page.data.length) return <p class="empty panel">No {spec.title.toLowerCase()} here yet.</p>;
  return (
    <>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              {spec.columns.map((column) => (
                <SortHeader key={column.label} column={column} sort={sort} />
              ))}
            </tr>
          </thead>
          <tbody>
            {page.data.map((row) => (
              <tr key={row.id}>
                {spec.columns.map((column, i) => (
                  <td key={column.label} class={column.number ? 'number' : undefined}>
                    {i === 0 && spec.href ? (
                      <Link href={spec.href(row)}>{column.render(row)}</Link>
                    ) : (
                      column.render(row)
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager {...page.pagination} onPage={(next) => setQuery({ page: next })} />
    </>
  );
}

/** A column header; a sortable one is a button saying which way it sorts (aria-sort). */
function SortHeader<T>({ column, sort }: { column: Column<T>; sort?: string }) {
  const className = column.number ? 'number' : undefined;
  if (!column.sort) return <th class={className}>{column.label}</th>;
  const direction = sort === column.sort ? 'ascending' : sort === `${column.sort}_desc` ? 'descending' : undefined;
  const next = direction === 'ascending' ? `${column.sort}_desc` : column.sort;
  return (
    <th class={className} aria-sort={direction ?? 'none'}>
      <button type="button" class="sort" onClick={() => setQuery({ sort: next, page: undefined })}>
        {column.label}
        <span aria-hidden="true">{direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
