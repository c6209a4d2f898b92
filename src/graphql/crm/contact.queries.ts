// The contact list in SQL. It is the hottest read of the API, and mapping 50
// rows through Prisma cost more CPU than the rest of the request (see README,
// Performance). The rows come out in the public shape (contactObject's), with
// timestamps formatted by PostgreSQL exactly as Date#toISOString does, so no
// per-row parsing and re-formatting happens in the request's thread.
import type pg from 'pg';
import { pageWindow } from '../pagination.js';
import type { ContactFilter, ContactSortField } from './contact.input.js';
import type { Contact } from './contact.type.js';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;

/** The columns of contactObject, in its order. */
const PUBLIC_COLUMNS = [
  'id',
  '"firstName"',
  '"lastName"',
  'email',
  'company',
  'phone',
  'tags',
  iso('"createdAt"'),
  iso('"updatedAt"'),
].join(', ');

// Qualified: the output columns "createdAt" and "updatedAt" are formatted text,
// and an unqualified ORDER BY name would sort by them instead of the index.
const SORT_COLUMNS: Record<ContactSortField, string> = {
  createdAt: '"Contact"."createdAt"',
  updatedAt: '"Contact"."updatedAt"',
  firstName: '"Contact"."firstName"',
  lastName: '"Contact"."lastName"',
  email: '"Contact".email',
  company: '"Contact".company',
};

/** `%` and `_` in the search text are literal. */
function escapeLike(text: string): string {
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
  const field = (sort?.replace(/^-/, '') ?? 'createdAt') as ContactSortField;
  const direction = sort?.startsWith('-') ? 'desc' : 'asc';
  return `${SORT_COLUMNS[field]} ${direction}, "Contact".id ${direction}`;
}

export async function listContacts(
  pool: pg.Pool,
  organizationId: string,
  filter: ContactFilter,
): Promise<{ contacts: Contact[]; total: number }> {
  const where = whereOf(organizationId, filter);
  const { skip, take } = pageWindow(filter);
  const n = where.params.length;
  const [page, count] = await Promise.all([
    pool.query<Contact>({
      text: `select ${PUBLIC_COLUMNS} from "Contact" where ${where.sql} order by ${orderOf(filter.sort)} limit $${n + 1} offset $${n + 2}`,
      values: [...where.params, take, skip],
    }),
    pool.query<{ total: number }>({
      text: `select count(*)::int as total from "Contact" where ${where.sql}`,
      values: where.params,
    }),
  ]);
  return { contacts: page.rows, total: count.rows[0]!.total };
}
