// The list fast path: one page of an organization's records straight out of
// PostgreSQL in their public shape (see fields.ts), with its exact total. Rows
// need no per-row mapping in the request's thread; through Prisma's model API,
// mapping 50 rows cost more CPU than the rest of a list request.
//
// What keeps it flat as a table grows (docs/architecture.md, "Performance"):
// - the total of an unfiltered list is read from "RecordCount", kept by
//   triggers in each insert's and delete's transaction, not counted row by row;
// - a filtered list counts through the filter's index, exactly up to COUNT_CAP;
// - `after` (a cursor) pages by key: a page at any depth reads what the first does;
// - a deep page finds its ids in the index first and reads only those rows;
// - statements are named, so each connection parses and plans them once.
import type pg from 'pg';
import type { Principal } from '../../auth/principal.js';
import { parseInput } from '../../validation.js';
import { invalidField } from '../../errors.js';
import { keysetOf, nextCursor } from './cursor.js';
import { publicFieldsOf, type PublicType } from './fields.js';
import { qualifiedColumn, sqlSelectOf } from './field-sql.js';
import { orderOf, whereOf, type AnyListDefinition } from './list.js';
import { COUNT_CAP, pageWindow, paginationOf, type Page, type PageRequest } from './page.js';
import { namedStatement } from './statements.js';
import { countAll, inSnapshot } from './snapshot.js';

/** What a resource's list reads: its table, its public type and its list definition. */
export interface ListSource<T> {
  table: string;
  type: PublicType<T>;
  /** The list's schema and filters (a list definition, or a list's own where its arguments are hand-written). */
  list: Pick<AnyListDefinition, 'schema' | 'filters'>;
  /**
   * Narrows the rows as a filter would, beyond the list's own filters (the exports a caller may see, one
   * webhook's deliveries); `bound`: a name under which its value binds cursors, like a filter's.
   */
  narrow?: { where: (param: string) => string; value: unknown; bound?: string };
  /**
   * Rows of another shape than the type's public one (an event's envelope): the SELECT list, whose row
   * holds the sort field as text or a number, and the mapping of each row.
   */
  rows?: { select: string; map: (row: Record<string, unknown>) => T };
  /**
   * A log written all the time (webhook deliveries): the page and its exact total read in one snapshot,
   * so that the total cannot count fewer rows than the page holds.
   */
  snapshot?: boolean;
}

/** From this offset on, a page's ids are found in the index before any row is read. */
const DEFERRED_JOIN_OFFSET = 1_000;

/** One page of the caller's organization's records; `args` are checked with the list's schema unless `parsed`. */
export async function listPage<T>(
  pool: pg.Pool,
  { table, type, list, narrow, rows, snapshot }: ListSource<T>,
  principal: Principal,
  args: unknown,
  parsed = false,
): Promise<Page<T>> {
  const filter = (parsed ? args : parseInput(list.schema, args)) as PageRequest & Record<string, unknown>;
  refusePageWithCursor(filter);
  const sort = filter.sort as string | undefined;
  const where = whereOf(list, principal.organizationId, filter, table);
  const filtered = where.params.length > 1;
  if (narrow) {
    where.params.push(narrow.value);
    where.sql += ` and ${narrow.where(`$${where.params.length}`)}`;
  }
  const params = [...where.params];
  const filters = filtersOf(list, filter);
  if (narrow?.bound) filters[narrow.bound] = narrow.value;
  const nullable = (field: string) => !rows && isNullable(type, field);
  const keyset = keysetOf(table, { sort, after: filter.after, filters, nullable }, params);
  const condition = keyset.condition ? `${where.sql} and ${keyset.condition}` : where.sql;
  const { skip, take } = pageWindow(filter);
  const n = params.length;
  // One row more than the page: whether there is a next page, without counting.
  const window = `order by ${orderOf(table, sort)} limit $${n + 1} offset $${n + 2}`;
  const quoted = `"${table}"`;
  const select = rows?.select ?? sqlSelectOf(type, table);
  const text =
    skip < DEFERRED_JOIN_OFFSET
      ? `select ${select} from ${quoted} where ${condition} ${window}`
      : `select ${select} from ${quoted}
         join (select ${qualifiedColumn(table, 'id')} as page_id from ${quoted} where ${condition} ${window}) page
           on ${qualifiedColumn(table, 'id')} = page.page_id
         order by ${orderOf(table, sort)}`;
  const statement = namedStatement(text, [...params, take + 1, skip]);
  const [page, counted] = snapshot
    ? await inSnapshot(pool, async (client) => [
        await client.query<T & object>(statement),
        await countAll(client, quoted, where),
      ])
    : await Promise.all([
        pool.query<T & object>(statement),
        filtered || narrow ? countRows(pool, quoted, where, orderOf(table, sort)) : countedRows(pool, table, principal),
      ]);
  const more = page.rows.length > take;
  const read = more ? page.rows.slice(0, take) : page.rows;
  const next = nextCursor(read as Record<string, unknown>[], more, keyset.binding, keyset.order.field);
  const data = rows ? (read as Record<string, unknown>[]).map(rows.map) : read;
  return { data, pagination: paginationOf(filter, { ...counted, next }) };
}

/** `page` and `after` are two ways to say where a page starts: one at a time. */
export function refusePageWithCursor({ page, after }: PageRequest): void {
  if (after && page !== undefined) {
    throw invalidField('page', 'cannot be given with after: a cursor says where the page starts');
  }
}

const isNullable = (type: PublicType, field: string) =>
  publicFieldsOf(type).find((each) => each.name === field)?.nullable ?? false;

/** The filters given, by name: what a cursor is bound to besides the table and sort. */
function filtersOf(list: ListSource<unknown>['list'], filter: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(list.filters).map((name) => [name, filter[name]]));
}

/**
 * A filtered list's matches, counted exactly up to COUNT_CAP and no further: a
 * search for a common word at a million rows stops there and says the total is
 * a lower bound, rather than counting every match for each page. `order`: the
 * page's own order, so the count walks the index the page walks, through the
 * organization's rows only; unordered, a common match was counted by a
 * sequential scan whose cost hung on where the organization's rows lie in the
 * table (7.5 against 4.0 ms at a million rows in the table's second half).
 */
export async function countRows(
  pool: pg.Pool,
  quotedTable: string,
  where: { sql: string; params: unknown[] },
  order?: string,
) {
  const n = where.params.length;
  const ordered = order ? ` order by ${order}` : '';
  const text = `select count(*)::int as total from (select 1 from ${quotedTable} where ${where.sql}${ordered} limit $${n + 1}) capped`;
  const { rows } = await pool.query<{ total: number }>(namedStatement(text, [...where.params, COUNT_CAP + 1]));
  const total = rows[0]!.total;
  return total > COUNT_CAP ? { total: COUNT_CAP, totalExact: false } : { total };
}

const COUNTED = `select coalesce(sum(count), 0)::int as total from "RecordCount" where "tableName" = $1 and "organizationId" = $2`;

/** The organization's row count of `table`, as the count triggers keep it (every shard summed). */
async function countedRows(pool: pg.Pool, table: string, principal: Principal) {
  const { rows } = await pool.query<{ total: number }>(namedStatement(COUNTED, [table, principal.organizationId]));
  return { total: rows[0]!.total };
}
