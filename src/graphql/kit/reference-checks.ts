// A record's references and unique fields checked against the organization's
// records: well-formed ids, the insert's conditions, references locked (KEY
// SHARE) until commit, and a batch's missing references and unique clashes.
import pg from 'pg';
import { DomainError, invalidField } from '../../errors.js';
import { isWellFormedIdWith } from '../../ids.js';
import type { RuleContext } from './lifecycle.js';
import { uniqueConflict } from './records.js';
import type { Resource } from './resource.js';

/** Each reference given is an id of its target's kind; else the 400 of a record not found. */
export function requireWellFormedReferences(resource: Resource, values: Record<string, unknown>) {
  for (const [field, { target }] of Object.entries(resource.references)) {
    const id = values[field];
    if (typeof id === 'string' && !isWellFormedIdWith(target.idPrefix, id)) throw unknownReference(field, target);
  }
}

/** The insert's conditions: each reference given is a record of the organization. */
export function referenceConditions(resource: Resource, values: Record<string, unknown>, organizationId: string) {
  return Object.entries(resource.references)
    .filter(([field]) => typeof values[field] === 'string')
    .map(
      ([field, { target }]) =>
        (param: (value: unknown) => string) =>
          `exists (select 1 from "${target.table}" where id = ${param(values[field])} and "organizationId" = ${param(organizationId)})`,
    );
}

/**
 * Each reference among `values` is a record of the organization, locked (KEY
 * SHARE) until commit so a concurrent delete cannot slip between; else a 400.
 */
export async function requireReferences(resource: Resource, rules: RuleContext, values: Record<string, unknown>) {
  for (const [field, { target }] of Object.entries(resource.references)) {
    const id = values[field];
    if (typeof id !== 'string') continue;
    const found = await rules.query(
      `select 1 from "${target.table}" where id = $1 and "organizationId" = $2 for key share`,
      [id, rules.organizationId],
    );
    if (found.length === 0) throw unknownReference(field, target);
  }
}

/**
 * For a batch of new records: which reference does each name that is not a
 * record of the organization (a 400 as `create`'s), one query per reference
 * field; those found stay locked (KEY SHARE) until commit.
 */
export async function missingReferences(resource: Resource, rules: RuleContext, records: Record<string, unknown>[]) {
  const references = Object.entries(resource.references);
  const found = new Map<string, Set<string>>();
  for (const [field, { target }] of references) {
    const ids = [...new Set(records.map((values) => values[field]).filter((id) => typeof id === 'string'))];
    if (!ids.length) continue;
    const rows = await rules.query<{ id: string }>(
      `select id from "${target.table}" where id = any($1) and "organizationId" = $2 for key share`,
      [ids, rules.organizationId],
    );
    found.set(field, new Set(rows.map(({ id }) => id)));
  }
  return (values: Record<string, unknown>): DomainError | undefined => {
    for (const [field, { target }] of references) {
      const id = values[field];
      if (typeof id === 'string' && !found.get(field)?.has(id)) return unknownReference(field, target);
    }
    return undefined;
  };
}

/**
 * For records a bulk insert skipped: the unique field each clashed on (its
 * value now taken: by an older record or an earlier row of the batch), as the
 * 409 `create` answers, checking the fields in their declared order.
 */
export async function uniqueClashes(
  pool: pg.Pool,
  resource: Resource,
  organizationId: string,
  records: Record<string, unknown>[],
) {
  const taken = new Map<string, Set<string>>();
  const unique = Object.entries(resource.unique ?? {});
  for (const [field] of unique) {
    const values = [...new Set(records.map((values) => values[field]).filter((value) => value != null))];
    if (!values.length) continue;
    const { rows } = await pool.query<{ value: string }>(
      `select "${field}"::text as value from "${resource.table}" where "organizationId" = $1 and "${field}" = any($2)`,
      [organizationId, values],
    );
    taken.set(field, new Set(rows.map(({ value }) => value)));
  }
  return (values: Record<string, unknown>): DomainError | undefined => {
    const clash = unique.find(([field]) => values[field] != null && taken.get(field)?.has(String(values[field])));
    return clash && new DomainError('CONFLICT', clash[1], clash[0]);
  };
}

/** A 400 naming the field and what it should name: 'no contact with this id in the organization'. */
export const unknownReference = (field: string, target: Resource) =>
  invalidField(field, `no ${target.noun[0]} with this id in the organization`);

// A reference refused: foreign_key_violation, or restrict_violation, which PostgreSQL 18
// raises for ON DELETE RESTRICT where earlier versions raised the former.
const REFERENCE_VIOLATIONS = new Set(['23503', '23001']);

export const isReferenceViolation = (error: unknown): error is pg.DatabaseError =>
  error instanceof pg.DatabaseError && REFERENCE_VIOLATIONS.has(error.code ?? '');

/** A constraint's refusal as the client's error: a unique field taken (409), a reference gone (400). */
export function constraintRefusal(resource: Resource, error: unknown): DomainError | undefined {
  const conflict = resource.unique && uniqueConflict(error, resource.unique);
  if (conflict) return conflict;
  if (isReferenceViolation(error)) {
    const entry = Object.entries(resource.references).find(([field]) => error.constraint?.includes(`_${field}_`));
    if (entry) return unknownReference(entry[0], entry[1].target);
    return new DomainError('CONFLICT', `Other records still refer to this ${resource.noun[0]}`);
  }
  return undefined;
}
