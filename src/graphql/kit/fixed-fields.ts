// Fields a REST body may carry but not change: read-only ones (`id`,
// `createdAt`, computed amounts), ones fixed when the record is created (a
// leave request's `employeeId`) and ones only an action changes (a lifecycle's
// state and what its actions set). A record read and sent back carries them at
// the record's values, which pass; any other value is a 400 naming the field,
// never ignored. The REST facade picks them out of the body; they are compared
// here against the record as it is (a PUT, in the update's transaction, after
// the row is locked) or as a create would make it (the initial state, nothing
// else set). GraphQL inputs are typed: they cannot carry such fields at all.
// The same comparison tells which fields an update changes.
import { isDeepStrictEqual } from 'node:util';
import { DomainError } from '../../errors.js';
import { FIELD_KINDS, publicFieldsOf, type PublicType } from './fields.js';

export interface FixedFields {
  /** The fields the body gave, with the values given. */
  values: Record<string, unknown>;
  /** What the 400 says of each (which action to use, or that it is read-only). */
  messages: Record<string, string>;
}

const timestampsByType = new WeakMap<PublicType, Set<string>>();

function timestampFields(type: PublicType): Set<string> {
  let fields = timestampsByType.get(type);
  if (!fields) {
    fields = new Set(
      publicFieldsOf(type)
        .filter(({ kind }) => kind === FIELD_KINDS.timestamp)
        .map(({ name }) => name),
    );
    timestampsByType.set(type, fields);
  }
  return fields;
}

/** Equal as JSON values, whatever the order of an object's keys; absent is null. */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a ?? null, b ?? null);
}

/** The same instant, however written (`…:00Z` and `…:00.000Z`). */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return a == b;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return new Date(a).getTime() === new Date(b).getTime();
}

/**
 * 400 naming the first fixed field given with a value other than the record's.
 * `record`: the record in its public shape; `type` says which of its fields are
 * timestamps (compared as instants).
 */
export function refuseChangedFixed(record: object, fixed: FixedFields | undefined, type?: PublicType): void {
  if (!fixed) return;
  const values = record as Record<string, unknown>;
  const timestamps = type ? timestampFields(type) : undefined;
  for (const [field, given] of Object.entries(fixed.values)) {
    const same = timestamps?.has(field) ? sameInstant : sameValue;
    if (!same(values[field], given)) {
      throw new DomainError('VALIDATION_ERROR', fixed.messages[field] ?? `'${field}' is read-only`, field);
    }
  }
}

/** The entries of `values` that differ from the record's (public shape; timestamps compared as instants). */
export function changedFields(type: PublicType, record: object, values: Record<string, unknown>) {
  const was = record as Record<string, unknown>;
  const timestamps = timestampFields(type);
  return Object.fromEntries(
    Object.entries(values).filter(([field, value]) => {
      const same = timestamps.has(field) ? sameInstant : sameValue;
      return !same(was[field], value);
    }),
  );
}
