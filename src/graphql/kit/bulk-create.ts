// Many creates at once (imports): each checked as `create` checks it, then
// written by one statement per chunk of rows (store.ts insertRecords) instead
// of one each, with per-row refusals as `create` would answer them.
import type { Principal } from '../../auth/principal.js';
import { actorOf } from '../../auth/principal.js';
import { DomainError } from '../../errors.js';
import { newRecordValues } from './create-values.js';
import { storedColumns } from './inputs.js';
import type { ServiceDependencies } from './module.js';
import { missingReferences, uniqueClashes } from './reference-checks.js';
import type { Resource } from './resource.js';
import { ruleContextOf } from './rule-context.js';
import { insertRecords } from './store.js';

/**
 * Many creates at once, each as `create` would make it (the same checks,
 * values, events and 409s), written by one statement per chunk of rows
 * (store.ts insertRecords) instead of one each: for bulk writers (imports).
 * Only for a resource whose create has no rules that read or write the
 * database (`createsInBulk`); the others' creates run one by one. Answers, per
 * input in order, the new record's id or the DomainError `create` would
 * throw. Run it in a transaction: the references it checks stay locked until
 * commit. A refusal of the database other than a unique field (a check
 * constraint) throws for the whole call.
 */

/** Creates checked without the database (checkCreates), for writeCreates. */
export interface CheckedCreates {
  principal: Principal;
  parsed: boolean;
  entries: readonly CheckedCreate[];
}

/** An input, and its new record's values or why `create` would refuse it. */
interface CheckedCreate {
  input: unknown;
  values?: Record<string, unknown>;
  refusal?: DomainError;
}

/** A create's outcome in `createMany`: the new record's id, or why it was refused. */
export type CreateOutcome = { id: string; refusal?: undefined } | { id?: undefined; refusal: DomainError };

/**
 * Whether the resource's creates can be written many at once (createMany): its
 * create has no rules that read or write the database (`rules.create`, such as
 * an invoice's number, a payment's allocation; `afterCreate`, such as an
 * employee's compensation). `rules.check` runs in JS, so it does not stop it.
 */
export function createsInBulk(resource: Resource): boolean {
  return Boolean(resource.input) && !resource.rules?.create && !resource.rules?.afterCreate;
}

/**
 * createMany's first half, which needs no database: each input validated as
 * `create` does, with its new id. A bulk writer checks the next batch while
 * the database writes this one.
 */
export function checkCreates(
  resource: Resource,
  label: string,
  principal: Principal,
  inputs: readonly unknown[],
  parsed = false,
): CheckedCreates {
  if (!createsInBulk(resource)) {
    throw new Error(`${label}'s create has rules: create one by one`);
  }
  const entries = inputs.map((input): CheckedCreate => {
    try {
      return { input, values: newRecordValues(resource, principal, input, parsed) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { input, refusal: error };
    }
  });
  return { principal, parsed, entries };
}

/** createMany's second half: writes the checked creates (see createMany). */
export async function writeCreates(
  resource: Resource,
  deps: ServiceDependencies,
  { principal, entries }: CheckedCreates,
  create: (input: unknown) => Promise<{ id: string }>,
): Promise<CreateOutcome[]> {
  const outcomes: CreateOutcome[] = new Array(entries.length);
  const pending: { at: number; values: Record<string, unknown> }[] = [];
  entries.forEach(({ values, refusal }, at) => {
    if (values) pending.push({ at, values });
    else outcomes[at] = { refusal: refusal! };
  });
  const rules = ruleContextOf(deps.pool, principal, { deps, ended: [] });
  const missing = await missingReferences(
    resource,
    rules,
    pending.map(({ values }) => values),
  );
  const writable = pending.filter(({ at, values }) => {
    const refusal = missing(values);
    if (refusal) outcomes[at] = { refusal };
    return !refusal;
  });
  const declared = resource.input!;
  const inserted = await insertRecords(deps.pool, resource, {
    organizationId: principal.organizationId,
    rows: writable.map(({ values }) => storedColumns(declared.fields, values)),
    ...(resource.events?.created && { event: resource.events.created.type }),
    actor: actorOf(principal),
  });
  const skipped = writable.filter(({ at, values }) => {
    const id = values.id as string;
    if (inserted.has(id)) outcomes[at] = { id };
    return !inserted.has(id);
  });
  const clashes = await uniqueClashes(
    deps.pool,
    resource,
    principal.organizationId,
    skipped.map(({ values }) => values),
  );
  for (const { at, values } of skipped) {
    const clash = clashes(values);
    if (clash) {
      outcomes[at] = { refusal: clash };
      continue;
    }
    // Skipped for no declared unique field (what it clashed with has gone since): `create` says what happens.
    try {
      outcomes[at] = { id: (await create(entries[at]!.input)).id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcomes[at] = { refusal: error };
    }
  }
  return outcomes;
}
