// The contact list in SQL. It is the hottest read of the API, and mapping 50
// rows through Prisma cost more CPU than the rest of the request (see README,
// Performance); node-postgres returns the same row shape as the Prisma model.
import type pg from 'pg';
import type { Contact as ContactRow } from '../../generated/prisma/client.js';
import { pageWindow } from '../pagination.js';
import type { ContactFilter } from './contact.input.js';

const SORT_COLUMNS: Record<string, string> = {
  createdAt: '"createdAt"',
  updatedAt: '"updatedAt"',
  firstName: '"firstName"',
  lastName: '"lastName"',
  email: 'email',
  company: 'company',
};

/** `%` and `_` in the search text are literal. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

function whereOf(organizationId: string, filter: ContactFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [organizationId];
  const conditions = ['"organizationId" = $1'];
  const add = (condition: (param: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (filter.email) add((p) => `email = ${p}`, filter.email.toLowerCase());
  if (filter.company) add((p) => `lower(company) = lower(${p})`, filter.company);
  if (filter.tag) add((p) => `${p} = any(tags)`, filter.tag);
  if (filter.q) {
    add(
      (p) => `("firstName" ilike ${p} or "lastName" ilike ${p} or email ilike ${p} or company ilike ${p})`,
      `%${escapeLike(filter.q)}%`,
    );
  }
  return { sql: conditions.join(' and '), params };
}

/** createdAt then id by default; a sort field, then id, in the same direction. PostgreSQL puts nulls last ascending. */
function orderOf(sort: ContactFilter['sort']): string {
  if (!sort) return '"createdAt" asc, id asc';
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  return `${SORT_COLUMNS[sort.replace(/^-/, '')]} ${direction}, id ${direction}`;
}

export async function listContactRows(
  pool: pg.Pool,
  organizationId: string,
  filter: ContactFilter,
): Promise<{ rows: ContactRow[]; total: number }> {
  const where = whereOf(organizationId, filter);
  const { skip, take } = pageWindow(filter);
  const n = where.params.length;
  const [page, count] = await Promise.all([
    pool.query<ContactRow>({
      text: `select * from "Contact" where ${where.sql} order by ${orderOf(filter.sort)} limit $${n + 1} offset $${n + 2}`,
      values: [...where.params, take, skip],
    }),
    pool.query<{ total: number }>({
      text: `select count(*)::int as total from "Contact" where ${where.sql}`,
      values: where.params,
    }),
  ]);
  return { rows: page.rows, total: count.rows[0]!.total };
}
