// What every resource's service does the same way: find the caller's own record
// (anything else, including a malformed id or another organization's record, is
// a 404), the previous values of what a change changed, and the field a unique
// constraint refused.
import pg from 'pg';
import { Prisma } from '../../db/prisma.js';
import { DomainError, notFound } from '../../errors.js';
import { isWellFormedIdWith } from '../../ids.js';
import { sqlSelectOf } from './field-sql.js';
import type { Narrowing } from './resource.js';
import { namedStatement } from './statements.js';
import type { Queryable, RecordTable } from './store.js';

const UNIQUE_VIOLATION = '23505';

/** Throws NOT_FOUND unless `id` has this prefix (`con`) and the shape of an id; saves a query on malformed ids. */
export function requireWellFormedId(prefix: string, label: string, id: string): void {
  if (!isWellFormedIdWith(prefix, id)) throw notFound(label);
}

/**
 * The organization's record in its public shape, locked FOR UPDATE when `lock` (in a transaction);
 * `narrow`: only if the caller may see it (a resource's `visibleTo`).
 */
export async function selectRecord<T>(
  db: Queryable,
  { table, type }: RecordTable<T>,
  organizationId: string,
  id: string,
  lock = false,
  narrow?: Narrowing,
): Promise<T | undefined> {
  const narrowed = narrow ? ` and ${narrow.where('$3')}` : '';
  const text = `select ${sqlSelectOf(type, table)} from "${table}" where id = $1 and "organizationId" = $2${narrowed}${lock ? ' for update' : ''}`;
  const params = narrow ? [id, organizationId, narrow.value] : [id, organizationId];
  const { rows } = await db.query<T & object>(namedStatement(text, params));
  return rows[0];
}

/** The previous public values of the changed fields, plus updatedAt (Stripe's previous_attributes). */
export function previousAttributes<T extends object>(before: T, changed: string[]): Partial<T> {
  const previous = before as Record<string, unknown>;
  return Object.fromEntries([...changed, 'updatedAt'].map((field) => [field, previous[field]])) as Partial<T>;
}

/**
 * When `error` is a unique-constraint refusal on one of `fields`, the CONFLICT
 * naming it; otherwise undefined. The constraint is named by PostgreSQL
 * (`Contact_organizationId_email_key`, from node-postgres) or listed by Prisma.
 */
export function uniqueConflict(error: unknown, messages: Record<string, string>): DomainError | undefined {
  const described = uniqueViolationOf(error);
  if (described === undefined) return undefined;
  const field = Object.keys(messages).find((name) => new RegExp(`\\b${name}\\b|_${name}_`).test(described));
  if (!field) return undefined;
  return new DomainError('CONFLICT', messages[field]!, field);
}

/** What names the constraint of a unique violation, or undefined for any other error. */
function uniqueViolationOf(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    return error.code === 'P2002' ? JSON.stringify(error.meta ?? {}) : undefined;
  }
  if (error instanceof pg.DatabaseError && error.code === UNIQUE_VIOLATION) return `${error.constraint}_`;
  return undefined;
}
