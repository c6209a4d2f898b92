// The list fast path: one page of an organization's records straight out of
// PostgreSQL in their public shape (see fields.ts), with its exact total. Rows
// need no per-row mapping in the request's thread; through Prisma's model API,
// mapping 50 rows cost more CPU than the rest of a list request.
import type pg from 'pg';
import { sqlSelectOf, type PublicType } from './fields.js';
import { orderOf, whereOf, type AnyListDefinition } from './list.js';
import { pageWindow, paginationOf, type Page, type PageRequest } from './page.js';

export interface ListQuery<T> {
  table: string;
  type: PublicType<T>;
  list: AnyListDefinition;
  organizationId: string;
  /** The list's schema's output: page, limit, sort and filters. */
  filter: PageRequest & Record<string, unknown>;
}

export async function listPage<T>(pool: pg.Pool, query: ListQuery<T>): Promise<Page<T>> {
  const { table, type, filter } = query;
  const where = whereOf(query.list, query.organizationId, filter, table);
  const { skip, take } = pageWindow(filter);
  const n = where.params.length;
  const [page, count] = await Promise.all([
    pool.query<T & object>({
      text: `select ${sqlSelectOf(type, table)} from "${table}" where ${where.sql} order by ${orderOf(table, filter.sort as string | undefined)} limit $${n + 1} offset $${n + 2}`,
      values: [...where.params, take, skip],
    }),
    pool.query<{ total: number }>({
      text: `select count(*)::int as total from "${table}" where ${where.sql}`,
      values: where.params,
    }),
  ]);
  return { data: page.rows, pagination: paginationOf(filter, count.rows[0]!.total) };
}
