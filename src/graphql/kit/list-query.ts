// The list fast path: one page of an organization's records straight out of
// PostgreSQL in their public shape (see fields.ts), with its exact total. Rows
// need no per-row mapping in the request's thread; through Prisma's model API,
// mapping 50 rows cost more CPU than the rest of a list request.
import type pg from 'pg';
import type { Principal } from '../../auth/principal.js';
import { parseInput } from '../../validation.js';
import { sqlSelectOf, type PublicType } from './fields.js';
import { orderOf, whereOf, type AnyListDefinition } from './list.js';
import { pageWindow, paginationOf, type Page, type PageRequest } from './page.js';

/** What a resource's list reads: its table, its public type and its list definition. */
export interface ListSource<T> {
  table: string;
  type: PublicType<T>;
  list: AnyListDefinition;
}

/** One page of the caller's organization's records; `args` are checked with the list's schema. */
export async function listPage<T>(
  pool: pg.Pool,
  { table, type, list }: ListSource<T>,
  principal: Principal,
  args: unknown,
): Promise<Page<T>> {
  const filter = parseInput(list.schema, args) as PageRequest & Record<string, unknown>;
  const where = whereOf(list, principal.organizationId, filter, table);
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
