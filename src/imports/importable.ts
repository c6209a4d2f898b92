// What can be imported: every declared resource that takes a create (kit/declared.ts,
// by its REST path's last segment), read at call time. Upsert keys are the fields the
// declaration says are unique (`unique`: email for contacts, number for invoices).
// Columns that are the REST object's read-only fields (id, createdAt, a state only an
// action moves) or an export's reference names (contactName) are ignored, so a file
// exported by this API imports back as it is.
import { DomainError, invalidField } from '../errors.js';
import { declaredResources } from '../graphql/kit/declared.js';
import { publicFieldsOf } from '../graphql/kit/fields.js';
import type { AnyResourceInput } from '../graphql/kit/inputs.js';
import { referenceNamesOf } from '../graphql/kit/labels.js';
import type { Resource } from '../graphql/kit/resource.js';

export interface Importable {
  name: string;
  resource: Resource;
  input: AnyResourceInput;
  /** Fields an upsert may match rows by. */
  keys: string[];
  /** Columns read and left out (never given to the resource). */
  ignored: ReadonlySet<string>;
}

function importableOf(name: string, resource: Resource): Importable | undefined {
  const input = resource.input;
  if (!input) return undefined;
  const inputFields = new Set(Object.keys(input.fields));
  const ignored = new Set([
    ...publicFieldsOf(resource.type)
      .map((field) => field.name)
      .filter((field) => !inputFields.has(field)),
    ...referenceNamesOf(resource).map((named) => named.name),
  ]);
  return { name, resource, input, keys: Object.keys(resource.unique ?? {}), ignored };
}

/** Every importable resource by name, as declared now. */
export function importables(): Map<string, Importable> {
  const found = new Map<string, Importable>();
  for (const [name, resource] of declaredResources()) {
    const importable = importableOf(name, resource);
    if (importable) found.set(name, importable);
  }
  return found;
}

/** The resource named, or the 400 listing what can be imported. */
export function importableNamed(name: string): Importable {
  const all = importables();
  const found = all.get(name);
  if (!found) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `'resource' must be one of ${[...all.keys()].sort().join(', ')}`,
      'resource',
    );
  }
  return found;
}

/** An upsert's key: one of the resource's unique fields (400 otherwise). */
export function requireUpsertKey(importable: Importable, key: string | undefined): string {
  const { keys, name } = importable;
  if (!keys.length) throw invalidField('mode', `${name} has no unique field to upsert by: use mode=create`);
  if (key === undefined) throw invalidField('key', `is required with mode=upsert: one of ${keys.join(', ')}`);
  if (!keys.includes(key)) throw invalidField('key', `must be a unique field of ${name}: ${keys.join(', ')}`);
  return key;
}
