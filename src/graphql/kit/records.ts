// What every resource's service does the same way: find the caller's own record
// (anything else, including a malformed id or another organization's record, is
// a 404), work out which fields a patch changes and their previous values, and
// name the field a unique constraint refused.
import pg from 'pg';
import { Prisma } from '../../db/prisma.js';
import { DomainError, notFound } from '../../errors.js';
import { isWellFormedIdWith } from '../../ids.js';

const UNIQUE_VIOLATION = '23505';

/** Throws NOT_FOUND unless `id` has this prefix (`con`) and the shape of an id; saves a query on malformed ids. */
export function requireWellFormedId(prefix: string, label: string, id: string): void {
  if (!isWellFormedIdWith(prefix, id)) throw notFound(label);
}

/** The organization's record with this id, or NOT_FOUND. */
export async function findOwned<R>(
  prefix: string,
  label: string,
  id: string,
  find: (id: string) => Promise<R | null | undefined>,
): Promise<R> {
  requireWellFormedId(prefix, label, id);
  const row = await find(id);
  if (!row) throw notFound(label);
  return row;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'bigint' || typeof b === 'bigint') return a !== null && b !== null && String(a) === String(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The entries of `next` (already in column form) whose value differs from the row's. */
export function changedColumns(before: object, next: Record<string, unknown>): Record<string, unknown> {
  const row = before as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(next).filter(([field, value]) => value !== undefined && !sameValue(row[field], value)),
  );
}

/** The previous public values of the changed fields, plus updatedAt (Stripe's previous_attributes). */
export function previousAttributes<T extends object>(before: T, changed: string[]): Partial<T> {
  const previous = before as Record<string, unknown>;
  return Object.fromEntries([...changed, 'updatedAt'].map((field) => [field, previous[field]])) as Partial<T>;
}

/**
 * For the hand-written services: the previous values of the public fields that
 * differ between two public objects of a record (updatedAt included), for an
 * update event's previousAttributes.
 */
export function changedAttributes<T extends object>(before: T, after: T): Partial<T> {
  const [was, is] = [before as Record<string, unknown>, after as Record<string, unknown>];
  const changed = Object.keys(was).filter((field) => !sameValue(was[field], is[field]));
  return previousAttributes(before, changed);
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
