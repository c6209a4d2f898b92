// The reads behind a relation's loaders (relations.ts): the records among some
// ids, and one page of the records of each key, for every key of a list at once.
import type pg from 'pg';
import { sqlSelectOf } from './field-sql.js';
import { pageWindow, paginationOf, type Page } from './page.js';
import type { Resource } from './resource.js';
import { namedStatement } from './statements.js';

/** A page of a relation: the records of each key (for `Contact.deals(page, limit)`). */
export interface RelationPage {
  page: number;
  limit: number;
}

/** The organization's records among `ids`, in no particular order. */
export async function recordsAmong<T extends { id: string }>(
  pool: pg.Pool,
  resource: Resource<T>,
  organizationId: string,
  ids: readonly string[],
): Promise<T[]> {
  const { table, type } = resource;
  const text = `select ${sqlSelectOf(type, table)} from "${table}" where "organizationId" = $1 and id = any($2)`;
  const { rows } = await pool.query<T & object>(namedStatement(text, [organizationId, ids]));
  return rows;
}

/**
 * For each key, one page of the records whose `field` holds it, oldest first,
 * with its pagination: one query for every key of a list (the loader of a
 * relation like Contact.deals). The first record of each key comes along even
 * off the page, for the key's total (a page past the end still counts them).
 */
export async function pagesByKey<T extends { id: string }>(
  pool: pg.Pool,
  resource: Resource<T>,
  organizationId: string,
  field: string,
  keys: readonly string[],
  window: RelationPage,
): Promise<Page<T>[]> {
  const { table, type } = resource;
  const { skip, take } = pageWindow(window);
  const column = `"${table}"."${field}"`;
  const text = `select * from (
      select ${sqlSelectOf(type, table)}, ${column} as "__key",
        row_number() over (partition by ${column} order by "${table}"."createdAt", "${table}".id) as "__n",
        count(*) over (partition by ${column}) as "__total"
      from "${table}" where "${table}"."organizationId" = $1 and ${column} = any($2)) ranked
    where ("__n" > $3 and "__n" <= $4) or "__n" = 1 order by "__n"`;
  const { rows } = await pool.query<T & { __key: string; __n: string; __total: string }>(
    namedStatement(text, [organizationId, keys, skip, skip + take]),
  );
  const groups = new Map<string, { data: T[]; total: number }>(keys.map((key) => [key, { data: [], total: 0 }]));
  for (const { __key: key, __n: n, __total: total, ...record } of rows) {
    const group = groups.get(key);
    if (!group) continue;
    group.total = Number(total);
    if (Number(n) > skip) group.data.push(record as unknown as T);
  }
  return keys.map((key) => {
    const { data, total } = groups.get(key)!;
    return { data, pagination: paginationOf(window, { total }) };
  });
}
