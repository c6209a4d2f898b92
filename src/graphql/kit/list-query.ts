// The list fast path: one page of an organization's records straight out of
// PostgreSQL in their public shape (see fields.ts), with its exact total. Rows
// need no per-row mapping in the request's thread; through Prisma's model API,
// mapping 50 rows cost more CPU than the rest of a list request.
//
// What keeps it flat as a table grows (docs/architecture.md, "Performance"):
// - the total of an unfiltered list is read from "RecordCount", kept by
//   triggers in each insert's and delete's transaction, not counted row by row;
// - a filtered list counts through the filter's index;
// - a deep page finds its ids in the index first and reads only those rows;
// - statements are named, so each connection parses and plans them once.
import type pg from 'pg';
import type { Principal } from '../../auth/principal.js';
import { parseInput } from '../../validation.js';
import { qualifiedColumn, sqlSelectOf, type PublicType } from './fields.js';
import { orderOf, whereOf, type AnyListDefinition } from './list.js';
import { pageWindow, paginationOf, type Page, type PageRequest } from './page.js';
import { namedStatement } from './statements.js';

/** What a resource's list reads: its table, its public type and its list definition. */
export interface ListSource<T> {
  table: string;
  type: PublicType<T>;
  list: AnyListDefinition;
  /** Narrows the rows as a filter would, beyond the list's own filters (the exports a caller may see). */
  narrow?: { where: (param: string) => string; value: unknown };
}

/** From this offset on, a page's ids are found in the index before any row is read. */
const DEFERRED_JOIN_OFFSET = 1_000;

/** One page of the caller's organization's records; `args` are checked with the list's schema unless `parsed`. */
export async function listPage<T>(
  pool: pg.Pool,
  { table, type, list, narrow }: ListSource<T>,
  principal: Principal,
  args: unknown,
  parsed = false,
): Promise<Page<T>> {
  const filter = (parsed ? args : parseInput(list.schema, args)) as PageRequest & Record<string, unknown>;
  const where = whereOf(list, principal.organizationId, filter, table);
  if (narrow) {
    where.params.push(narrow.value);
    where.sql += ` and ${narrow.where(`$${where.params.length}`)}`;
  }
  const { skip, take } = pageWindow(filter);
  const order = orderOf(table, filter.sort as string | undefined);
  const n = where.params.length;
  const window = `order by ${order} limit $${n + 1} offset $${n + 2}`;
  const quoted = `"${table}"`;
  const text =
    skip < DEFERRED_JOIN_OFFSET
      ? `select ${sqlSelectOf(type, table)} from ${quoted} where ${where.sql} ${window}`
      : `select ${sqlSelectOf(type, table)} from ${quoted}
         join (select ${qualifiedColumn(table, 'id')} as page_id from ${quoted} where ${where.sql} ${window}) page
           on ${qualifiedColumn(table, 'id')} = page.page_id
         order by ${order}`;
  const filtered = n > 1;
  const [page, total] = await Promise.all([
    pool.query<T & object>(namedStatement(text, [...where.params, take, skip])),
    filtered ? countRows(pool, quoted, where) : countedRows(pool, table, principal.organizationId),
  ]);
  return { data: page.rows, pagination: paginationOf(filter, total) };
}

async function countRows(pool: pg.Pool, quotedTable: string, where: { sql: string; params: unknown[] }) {
  const text = `select count(*)::int as total from ${quotedTable} where ${where.sql}`;
  const { rows } = await pool.query<{ total: number }>(namedStatement(text, where.params));
  return rows[0]!.total;
}

const COUNTED = `select coalesce(sum(count), 0)::int as total from "RecordCount" where "tableName" = $1 and "organizationId" = $2`;

/** The organization's row count of `table`, as the count triggers keep it (every shard summed). */
async function countedRows(pool: pg.Pool, table: string, organizationId: string) {
  const { rows } = await pool.query<{ total: number }>(namedStatement(COUNTED, [table, organizationId]));
  return rows[0]!.total;
}
