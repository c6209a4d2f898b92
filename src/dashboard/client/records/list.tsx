// The list of any declared resource: columns from the catalogue (columns.ts),
// sort by a column's header, search and filters from the list's arguments,
// newest first, paging, all kept in the URL; "Nothing matches" after a search
// or filter that found nothing, "No contacts yet" when there is nothing at
// all; a table that becomes cards on a narrow screen; Export of what is shown.
import type { ComponentChildren } from 'preact';
import { setQuery, useLocation } from '../route.js';
import { can, type PageProps } from '../section.js';
import { Link, Loaded, Pager, PageHeader, Select, useQuery } from '../ui.js';
import { fieldLabel, recordLabel, recordPath, title, type CatalogueField, type Row } from './catalogue.js';
import type { CatalogueResource } from './catalogue.js';
import { columnsOf } from './columns.js';
import { ExportButton } from './export.js';
import { ListFilters } from './filters.js';
import { isNumeric, RecordValue, valueText } from './format.js';
import { filtersOf, listQuery, listVariables, sortOf } from './list-query.js';
import './records.css';

interface Page {
  data: Row[];
  pagination: { page: number; limit: number; total: number };
}

export function RecordListPage({ entry, viewer }: PageProps & { entry: CatalogueResource }) {
  const { query: url } = useLocation();
  const filters = filtersOf(entry, url);
  const sort = sortOf(entry, url);
  const variables = listVariables(entry, url);
  const result = useQuery<Record<string, Page>>(listQuery(entry), variables);
  const filtered = Object.keys(filters).length > 0;
  const creatable = entry.graphql.create && can(viewer, entry.area.write);
  return (
    <>
      <PageHeader title={title(entry)}>
        <ExportButton entry={entry} filters={filters} />
        {creatable && (
          <Link class="button" href={`${entry.path}/new`}>
            New {entry.noun[0]}
          </Link>
        )}
      </PageHeader>
      <ListFilters entry={entry} url={url} />
      <Loaded query={result}>
        {(data) => <Table entry={entry} page={data[entry.graphql.many]!} sort={sort} filtered={filtered} />}
      </Loaded>
    </>
  );
}

interface Column {
  key: string;
  label: string;
  sort?: string;
  numeric?: boolean;
  render(row: Row): ComponentChildren;
  /** As plain text: the first cell is the record's link (no link, badge or mail link inside it). */
  text(row: Row): string;
}

function columns(entry: CatalogueResource): Column[] {
  const plan = columnsOf(entry);
  const sortable = (name: string) => (entry.graphql.sortValues.includes(name) ? name : undefined);
  const name: Column[] = plan.name
    ? [
        {
          key: 'name',
          label: plan.name.fields.length > 1 ? 'Name' : fieldLabel(plan.name.fields[0]!),
          sort: plan.name.sort,
          render: (row) => recordLabel(entry, row),
          text: (row) => recordLabel(entry, row),
        },
      ]
    : [];
  return [
    ...name,
    ...plan.fields.map((field: CatalogueField) => ({
      key: field.name,
      label: field.name === 'createdAt' ? 'Created' : fieldLabel(field.name),
      sort: sortable(field.name),
      numeric: isNumeric(field),
      // An email as text in a list: a row's links are its record and the records it refers to.
      render: (row: Row) =>
        field.kind === 'email' ? valueText(entry, field, row) : <RecordValue entry={entry} field={field} row={row} />,
      text: (row: Row) => valueText(entry, field, row),
    })),
  ];
}

function Table({
  entry,
  page,
  sort,
  filtered,
}: {
  entry: CatalogueResource;
  page: Page;
  sort?: string;
  filtered: boolean;
}) {
  if (!page.data.length) {
    if (filtered) {
      return (
        <div class="empty panel">
          <p>Nothing matches.</p>
          <p>
            <Link href={entry.path}>Clear the search and filters</Link>
          </p>
        </div>
      );
    }
    return <p class="empty panel">No {entry.noun[1]} yet.</p>;
  }
  const shown = columns(entry);
  return (
    <>
      <NarrowSort columns={shown} sort={sort} />
      <div class="table-wrap" role="region" aria-label={title(entry)} tabIndex={0}>
        <table class="stack-narrow record-list">
          <caption class="visually-hidden">{title(entry)}</caption>
          <thead>
            <tr>
              {shown.map((column) => (
                <SortHeader key={column.key} column={column} sort={sort} />
              ))}
            </tr>
          </thead>
          <tbody>
            {page.data.map((row) => (
              <tr key={row.id}>
                {shown.map((column, i) => (
                  <td key={column.key} class={column.numeric ? 'number' : undefined} data-label={column.label}>
                    {i === 0 ? <Link href={recordPath(entry, row.id)}>{column.text(row)}</Link> : column.render(row)}
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

/** The sort as a select where the table is cards (its headers are not shown): a narrow screen. */
function NarrowSort({ columns: shown, sort }: { columns: Column[]; sort?: string }) {
  const options = shown
    .filter((column) => column.sort)
    .flatMap((column) => [
      { value: column.sort!, label: `${column.label}, ascending` },
      { value: `${column.sort!}_desc`, label: `${column.label}, descending` },
    ]);
  if (!options.length) return null;
  return (
    <div class="narrow-only">
      <Select
        label="Sort by"
        name="sort"
        value={sort ?? ''}
        options={options}
        onChange={(event) => setQuery({ sort: event.currentTarget.value, page: undefined })}
      />
    </div>
  );
}

/** A column header; a sortable one is a button saying which way it sorts (aria-sort). */
function SortHeader({ column, sort }: { column: Column; sort?: string }) {
  const className = column.numeric ? 'number' : undefined;
  if (!column.sort) {
    return (
      <th class={className} scope="col">
        {column.label}
      </th>
    );
  }
  const direction = sort === column.sort ? 'ascending' : sort === `${column.sort}_desc` ? 'descending' : undefined;
  // A first click sorts a date newest first and anything else A to Z; the next one reverses it.
  const next =
    direction === 'ascending'
      ? `${column.sort}_desc`
      : direction === 'descending'
        ? column.sort
        : column.sort === 'createdAt' || column.sort === 'updatedAt'
          ? `${column.sort}_desc`
          : column.sort;
  return (
    <th class={className} scope="col" aria-sort={direction ?? 'none'}>
      <button type="button" class="sort" onClick={() => setQuery({ sort: next, page: undefined })}>
        {column.label}
        <span aria-hidden="true">{direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
