// Cursor pages: `after=<cursor>` continues a list after the last row of the
// page that gave the cursor, by key (the sort field's value, then the id),
// not by offset, so a page a million rows deep reads what the first page reads
// (docs/decisions.md, "Cursor pages").
//
// A cursor is opaque to clients: base64url of the last row's key and the
// binding of the list it came from (the table, the sort and every filter,
// hashed). A cursor given to another list, sort or filter is a 400 naming
// `after`, not a page of something else. It carries no tenant: the statement
// still reads only the caller's organization.
import { createHash } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { qualifiedColumn } from './field-sql.js';

const VERSION = 1;

/** What a cursor says: the sort key's value (as the record shows it) and the id of the last row read. */
export interface CursorKey {
  key: string | number | null;
  id: string;
}

/** The order a list pages in: a field and its direction (`-createdAt` descending). */
export interface SortOrder {
  field: string;
  descending: boolean;
}

export function sortOrderOf(sort: string | undefined, fallback = 'createdAt'): SortOrder {
  return { field: sort?.replace(/^-/, '') ?? fallback, descending: sort?.startsWith('-') ?? false };
}

/**
 * The list a cursor belongs to: the table, the sort and every filter given, so
 * that a cursor cannot quietly continue another list. Filters are hashed: a
 * search's text is not carried in the URL twice.
 */
export function cursorBinding(table: string, sort: string | undefined, filters: Record<string, unknown>): string {
  const given = Object.keys(filters)
    .filter((name) => filters[name] !== undefined)
    .sort()
    .map((name) => [name, filters[name]]);
  return createHash('sha256')
    .update(JSON.stringify([table, sort ?? null, given]))
    .digest('base64url')
    .slice(0, 16);
}

export function encodeCursor(binding: string, { key, id }: CursorKey): string {
  return Buffer.from(JSON.stringify([VERSION, binding, key, id])).toString('base64url');
}

const notACursor = () => invalidField('after', 'must be the cursor of a previous page (pagination.next)');

/** The key a cursor holds, if it was made for this list; else a 400 naming `after`. */
export function decodeCursor(cursor: string, binding: string): CursorKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notACursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== VERSION) throw notACursor();
  const [, madeFor, key, id] = parsed as [number, unknown, unknown, unknown];
  if (typeof id !== 'string' || !(key === null || typeof key === 'string' || typeof key === 'number')) {
    throw notACursor();
  }
  if (madeFor !== binding) {
    throw invalidField('after', 'is the cursor of another list, sort or filter: page with the same sort and filters');
  }
  return { key, id };
}

/**
 * The rows after `cursor` in the order `(field, id)`, both ascending or both
 * descending, nulls last ascending and first descending (PostgreSQL's
 * defaults, which the list's ORDER BY uses). On a column that is never null it
 * is one row comparison, which the (organizationId, field, id) index serves.
 * `param(value)` adds a parameter and answers its `$n`.
 */
export function keysetCondition(
  table: string,
  { field, descending }: SortOrder,
  nullable: boolean,
  { key, id }: CursorKey,
  param: (value: unknown) => string,
): string {
  const column = qualifiedColumn(table, field);
  const idColumn = qualifiedColumn(table, 'id');
  const beyond = descending ? '<' : '>';
  if (key === null) {
    // In the nulls: ascending they come last (only nulls remain), descending first (then every value).
    const inNulls = `(${column} is null and ${idColumn} ${beyond} ${param(id)})`;
    return descending ? `(${inNulls} or ${column} is not null)` : inNulls;
  }
  const after = `(${column}, ${idColumn}) ${beyond} (${param(key)}, ${param(id)})`;
  return nullable && !descending ? `(${after} or ${column} is null)` : after;
}

/** The cursor of the page after `rows`, when there are more: from the last row's sort field and id. */
export function nextCursor(
  rows: readonly Record<string, unknown>[],
  more: boolean,
  binding: string,
  field: string,
): string | null {
  const last = rows[rows.length - 1];
  if (!more || !last) return null;
  const key = last[field];
  if (key !== null && typeof key !== 'string' && typeof key !== 'number') {
    throw new Error(`cannot page by '${field}': its value is neither text, a number nor null`);
  }
  return encodeCursor(binding, { key, id: String(last.id) });
}

/** How a list pages by cursor: the condition after the cursor (none on a first page), and the next cursor's parts. */
export interface Keyset {
  /** The condition for rows after `after`, its values pushed onto the statement's parameters; undefined without one. */
  condition?: string;
  binding: string;
  order: SortOrder;
}

/**
 * The keyset of a list request: `sort` and the given `filters` bind the cursor;
 * with `after`, the condition on the rows past it, its values added to `params`.
 */
export function keysetOf(
  table: string,
  request: { sort?: string; after?: string; filters: Record<string, unknown>; nullable?: (field: string) => boolean },
  params: unknown[],
): Keyset {
  const order = sortOrderOf(request.sort);
  const binding = cursorBinding(table, request.sort, request.filters);
  if (!request.after) return { binding, order };
  const key = decodeCursor(request.after, binding);
  const param = (value: unknown) => `$${params.push(value)}`;
  const condition = keysetCondition(table, order, request.nullable?.(order.field) ?? false, key, param);
  return { condition, binding, order };
}
