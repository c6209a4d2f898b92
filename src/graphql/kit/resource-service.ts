// The service every declared resource gets: list, get, create, update, delete
// and its actions (its lifecycle's and its records'), scoped to the caller's organization. Writes go
// through store.ts (row and events in one statement); what the declaration
// says (defaults, references, unique fields, lifecycle, events) is applied
// here, and what is particular to the resource runs as its rules.
import pg from 'pg';
import { actorOf, type Principal } from '../../auth/principal.js';
import { DomainError, notFound, invalidField } from '../../errors.js';
import { isWellFormedIdWith, newIdWith } from '../../ids.js';
import { parseInput } from '../../validation.js';
import { requireSettable } from './field-scopes.js';
import { FIELD_KINDS, publicFieldsOf, sqlSelectOf } from './fields.js';
import { createValues, storedColumns, updateValues } from './inputs.js';
import { refuseChangedFixed, sameInstant, sameValue, type FixedFields } from './fixed-fields.js';
import { requireActionFrom, requireDeletable, requireEditable, type RuleContext } from './lifecycle.js';
import { listPage } from './list-query.js';
import type { ServiceDependencies } from './module.js';
import { pageWindow, paginationOf, type Page } from './page.js';
import { previousAttributes, requireWellFormedId, uniqueConflict } from './records.js';
import { refuseCycles } from './references.js';
import { actionsOf, requireDeclaredEvent, type EventSpec, type Resource } from './resource.js';
import { droppedAfterCommit, ruleContextOf, type EndedCredentials } from './rule-context.js';
import { withSecret, type IssuedSecret } from './secrets.js';
import { namedStatement } from './statements.js';
import {
  deleteRecord,
  inLazyTransaction,
  inTransaction,
  insertRecord,
  insertRecords,
  NOW,
  raiseEvents,
  selectRecord,
  updateRecord,
  type Queryable,
  type RaisedEvent,
} from './store.js';

// A reference refused: foreign_key_violation, or restrict_violation, which PostgreSQL 18
// raises for ON DELETE RESTRICT where earlier versions raised the former.
const REFERENCE_VIOLATIONS = new Set(['23503', '23001']);

/** A page of a relation: the records of each key (for `Contact.deals(page, limit)`). */
export interface RelationPage {
  page: number;
  limit: number;
}

export class ResourceService<T extends { id: string }> {
  private readonly comparers: Map<string, (a: unknown, b: unknown) => boolean>;

  constructor(
    readonly resource: Resource<T>,
    // A system resource's service extends this one with what is its own (the OAuth endpoints' client lookups).
    protected readonly db: ServiceDependencies,
  ) {
    this.comparers = new Map(
      publicFieldsOf(resource.type).map(({ name, kind }) => [
        name,
        kind === FIELD_KINDS.timestamp ? sameInstant : sameValue,
      ]),
    );
  }

  /** How messages name it: the type's name (`Contact not found`), a system resource's noun (`OAuth app not found`). */
  private get label() {
    const { system, noun, type } = this.resource;
    return system ? noun[0][0]!.toUpperCase() + noun[0].slice(1) : type.name;
  }

  /** One page of the organization's records; `parsed`: the arguments were validated already (REST). */
  list(principal: Principal, args: unknown, parsed = false): Promise<Page<T>> {
    const { table, type, list } = this.resource;
    return listPage(this.db.pool, { table, type, list }, principal, args, parsed);
  }

  async get(principal: Principal, id: string): Promise<T> {
    requireWellFormedId(this.resource.idPrefix, this.label, id);
    const record = await selectRecord(this.db.pool, this.resource, principal.organizationId, id);
    if (!record) throw notFound(this.label);
    return record;
  }

  /** The organization's records among `ids`, in no particular order (for a relation's loader). */
  async findMany(principal: Principal, ids: readonly string[]): Promise<T[]> {
    const { table, type } = this.resource;
    const text = `select ${sqlSelectOf(type, table)} from "${table}" where "organizationId" = $1 and id = any($2)`;
    const { rows } = await this.db.pool.query<T & object>(namedStatement(text, [principal.organizationId, ids]));
    return rows;
  }

  /**
   * For each key, one page of the records whose `field` holds it, oldest first,
   * with its pagination: one query for every key of a list (the loader of a
   * relation like Contact.deals). The first record of each key comes along even
   * off the page, for the key's total (a page past the end still counts them).
   */
  async pagesBy(
    principal: Principal,
    field: string,
    keys: readonly string[],
    window: RelationPage,
  ): Promise<Page<T>[]> {
    const { table, type } = this.resource;
    const { skip, take } = pageWindow(window);
    const column = `"${table}"."${field}"`;
    const text = `select * from (
        select ${sqlSelectOf(type, table)}, ${column} as "__key",
          row_number() over (partition by ${column} order by "${table}"."createdAt", "${table}".id) as "__n",
          count(*) over (partition by ${column}) as "__total"
        from "${table}" where "${table}"."organizationId" = $1 and ${column} = any($2)) ranked
      where ("__n" > $3 and "__n" <= $4) or "__n" = 1 order by "__n"`;
    const { rows } = await this.db.pool.query<T & { __key: string; __n: string; __total: string }>(
      namedStatement(text, [principal.organizationId, keys, skip, skip + take]),
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

  /** A create's checks that need no database, and the new record's values (its id among them). */
  private createValuesOf(principal: Principal, input: unknown, parsed: boolean): Record<string, unknown> {
    const { resource } = this;
    const declared = resource.input!;
    const data = (parsed ? input : parseInput(declared.create, input)) as Record<string, unknown>;
    requireSettable(resource.type, data, principal.scopes);
    const values = {
      id: newIdWith(resource.idPrefix),
      ...createValues(declared.fields, data),
      ...this.startingState(data),
    };
    this.requireWellFormedReferences(values);
    resource.rules?.check?.(values);
    return values;
  }

  async create(principal: Principal, input: unknown, parsed = false): Promise<T> {
    const { resource } = this;
    const declared = resource.input!;
    const values = this.createValuesOf(principal, input, parsed);
    const { organizationId } = principal;
    const actor = actorOf(principal);
    const events: RaisedEvent[] = resource.events?.created ? [{ type: resource.events.created.type }] : [];
    const after = resource.rules?.afterCreate;
    const write = async (db: Queryable, columns: Record<string, unknown>) => {
      const record = await insertRecord(db, resource, {
        organizationId,
        values: storedColumns(declared.fields, columns),
        events: after ? [] : events,
        actor,
        onlyIf: this.referenceConditions(columns, organizationId),
      });
      return record ?? this.missingReference(db, columns, principal);
    };
    try {
      const rules = resource.rules?.create;
      const { secret } = resource;
      if (!rules && !after && !secret) return await write(this.db.pool, values);
      if (!after) {
        // A rule that read nothing (no manager to check) leaves the insert alone: one statement, no transaction.
        return await inLazyTransaction(this.db.pool, async (db) => {
          const context = this.rules(db, principal);
          const columns = { ...values, ...(await rules?.(values, context)) };
          const issued = await secret?.issue(columns, context);
          const record = await write(db.begun ? db : this.db.pool, { ...columns, ...issued?.columns });
          return withSecret(record, issued);
        });
      }
      return await inTransaction(this.db.pool, async (client) => {
        const context = this.rules(client, principal);
        const columns = { ...values, ...(await rules?.(values, context)) };
        const record = await write(client, columns);
        // The events come after what afterCreate wrote: their object (and the answer) include it.
        const changes = (await after(record, context, columns)) ?? {};
        const target = { organizationId, id: record.id, events, actor };
        // No change: the row as inserted (updatedAt is this transaction's now() either way), read with its events.
        if (Object.keys(changes).length === 0) return (await raiseEvents(client, resource, target))!;
        return (await updateRecord(client, resource, { ...target, changes }))!;
      });
    } catch (error) {
      throw this.refusal(error) ?? error;
    }
  }

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
  async createMany(principal: Principal, inputs: readonly unknown[], parsed = false): Promise<CreateOutcome[]> {
    return this.writeCreates(this.checkCreates(principal, inputs, parsed));
  }

  /**
   * createMany's first half, which needs no database: each input validated as
   * `create` does, with its new id. A bulk writer checks the next batch while
   * the database writes this one.
   */
  checkCreates(principal: Principal, inputs: readonly unknown[], parsed = false): CheckedCreates {
    if (!createsInBulk(this.resource as Resource)) {
      throw new Error(`${this.label}'s create has rules: create one by one`);
    }
    const entries = inputs.map((input): CheckedCreate => {
      try {
        return { input, values: this.createValuesOf(principal, input, parsed) };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { input, refusal: error };
      }
    });
    return { principal, parsed, entries };
  }

  /** createMany's second half: writes the checked creates (see createMany). */
  async writeCreates({ principal, parsed, entries }: CheckedCreates): Promise<CreateOutcome[]> {
    const { resource } = this;
    const outcomes: CreateOutcome[] = new Array(entries.length);
    const pending: { at: number; values: Record<string, unknown> }[] = [];
    entries.forEach(({ values, refusal }, at) => {
      if (values) pending.push({ at, values });
      else outcomes[at] = { refusal: refusal! };
    });
    const rules = this.rules(this.db.pool, principal);
    const missing = await this.missingReferences(
      rules,
      pending.map(({ values }) => values),
    );
    const writable = pending.filter(({ at, values }) => {
      const refusal = missing(values);
      if (refusal) outcomes[at] = { refusal };
      return !refusal;
    });
    const declared = resource.input!;
    const inserted = await insertRecords(this.db.pool, resource, {
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
    const clashes = await this.uniqueClashes(
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
        outcomes[at] = { id: (await this.create(principal, entries[at]!.input, parsed)).id };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcomes[at] = { refusal: error };
      }
    }
    return outcomes;
  }

  /**
   * For a batch of new records: which reference does each name that is not a
   * record of the organization (a 400 as `create`'s), one query per reference
   * field; those found stay locked (KEY SHARE) until commit.
   */
  private async missingReferences(rules: RuleContext, records: Record<string, unknown>[]) {
    const references = Object.entries(this.resource.references);
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
  private async uniqueClashes(organizationId: string, records: Record<string, unknown>[]) {
    const taken = new Map<string, Set<string>>();
    const unique = Object.entries(this.resource.unique ?? {});
    for (const [field] of unique) {
      const values = [...new Set(records.map((values) => values[field]).filter((value) => value != null))];
      if (!values.length) continue;
      const { rows } = await this.db.pool.query<{ value: string }>(
        `select "${field}"::text as value from "${this.resource.table}" where "organizationId" = $1 and "${field}" = any($2)`,
        [organizationId, values],
      );
      taken.set(field, new Set(rows.map(({ value }) => value)));
    }
    return (values: Record<string, unknown>): DomainError | undefined => {
      const clash = unique.find(([field]) => values[field] != null && taken.get(field)?.has(String(values[field])));
      return clash && new DomainError('CONFLICT', clash[1], clash[0]);
    };
  }

  /**
   * A partial update. `fixed`: the read-only fields of a REST body (a record
   * sent back as read): the record's own values pass, any other is a 400 naming
   * the field (kit/fixed-fields.ts).
   */
  async update(principal: Principal, id: string, input: unknown, parsed = false, fixed?: FixedFields): Promise<T> {
    const { resource } = this;
    requireWellFormedId(resource.idPrefix, this.label, id);
    const declared = resource.input!;
    const patch = (parsed ? input : parseInput(declared.update, input)) as Record<string, unknown>;
    requireSettable(resource.type, patch, principal.scopes);
    const values = updateValues(declared.fields, patch);
    this.requireWellFormedReferences(values);
    const { organizationId } = principal;
    const actor = actorOf(principal);
    const { lifecycle } = resource;
    if (lifecycle && values[lifecycle.field] === null) {
      throw new DomainError('VALIDATION_ERROR', `'${lifecycle.field}' cannot be cleared`, lifecycle.field);
    }
    const ended: EndedCredentials = [];
    try {
      return await this.committing(ended, async (client) => {
        const before = await selectRecord(client, resource, organizationId, id, true);
        if (!before) throw notFound(this.label);
        const state = lifecycle && (before as Record<string, unknown>)[lifecycle.field];
        refuseChangedFixed(before, fixed, resource.type);
        const changes = this.changedFields(before, values);
        const moved = lifecycle?.update && lifecycle.field in changes;
        if (moved && lifecycle.final?.states.includes(state as string)) {
          throw new DomainError(
            'CONFLICT',
            `${this.label} is ${String(state)}; a ${lifecycle.final.name} ${this.resource.noun[0]}'s ${lifecycle.field} cannot change`,
            lifecycle.field,
          );
        }
        requireEditable(this.label, lifecycle, state);
        if (Object.keys(changes).length === 0) return before;
        resource.rules?.check?.({ ...before, ...changes });
        const rules = this.rules(client, principal, ended);
        await this.requireReferences(rules, changes);
        await refuseCycles(rules, resource as Resource, id, changes);
        Object.assign(changes, await resource.rules?.update?.({ before, changes, given: values }, rules));
        const reachesFinal = moved && lifecycle.final?.states.includes(changes[lifecycle.field] as string);
        if (reachesFinal && lifecycle.update!.stampFinal) changes[lifecycle.update!.stampFinal] = NOW;
        const chosen = resource.rules?.updateEvents?.({ before, changes });
        for (const { event } of chosen ?? []) requireDeclaredEvent(resource as Resource, event.type);
        const specs: EventSpec[] = chosen ?? [
          ...(resource.events?.updated ? [{ event: resource.events.updated, previous: true }] : []),
          ...(moved ? [{ event: lifecycle.update!.event, previous: true }] : []),
          ...(reachesFinal && lifecycle.update!.finalEvent ? [{ event: lifecycle.update!.finalEvent }] : []),
        ];
        const previous = previousAttributes(before, Object.keys(changes));
        const events = specs.map(({ event, previous: withPrevious }) => ({
          type: event.type,
          ...(withPrevious && { previousAttributes: previous }),
        }));
        const columns = storedColumns(declared.fields, changes);
        return (await updateRecord(client, resource, { organizationId, id, changes: columns, events, actor }))!;
      });
    } catch (error) {
      throw this.refusal(error) ?? error;
    }
  }

  /**
   * Runs the action `name` on the record, locked for the transaction: a
   * lifecycle's (409 naming the state when it cannot start from the record's)
   * moves the state, a record's changes what its `sets` answers.
   */
  async act(principal: Principal, name: string, id: string, input: unknown, parsed = false): Promise<T> {
    const { resource } = this;
    const { lifecycle } = resource;
    const action = actionsOf(resource)[name]!;
    requireWellFormedId(resource.idPrefix, this.label, id);
    const data = action.input ? (parsed ? input : parseInput(action.input.schema, input ?? {})) : {};
    const { organizationId } = principal;
    const actor = actorOf(principal);
    const ended: EndedCredentials = [];
    try {
      return await this.committing(ended, async (client) => {
        const before = await selectRecord(client, resource, organizationId, id, true);
        if (!before) throw notFound(this.label);
        const moves = action.from && lifecycle;
        if (moves) requireActionFrom(this.label, name, moves, String((before as Record<string, unknown>)[moves.field]));
        if (action.leaves?.(before)) return before;
        const rules = this.rules(client, principal, ended);
        const sets = await action.sets?.(data as never, before, rules);
        const changes = { ...(moves && { [moves.field]: action.to }), ...sets };
        // A rotation: the new secret's columns are written, not shown in previousAttributes.
        const issued: IssuedSecret | undefined = action.issuesSecret
          ? await resource.secret!.issue({ ...before, ...changes }, rules)
          : undefined;
        const event = action.otherwise?.applies(changes) ? action.otherwise.event : action.event;
        const previous = action.previous !== false && previousAttributes(before, Object.keys(changes));
        const events = [{ type: event.type, ...(previous && { previousAttributes: previous }) }];
        const columns = { ...changes, ...issued?.columns };
        const record = await updateRecord(client, resource, { organizationId, id, changes: columns, events, actor });
        return withSecret(record!, issued);
      });
    } catch (error) {
      throw this.refusal(error) ?? error;
    }
  }

  async delete(principal: Principal, id: string): Promise<boolean> {
    const { resource } = this;
    requireWellFormedId(resource.idPrefix, this.label, id);
    const events = resource.events?.deleted ? [{ type: resource.events.deleted.type }] : [];
    const target = { organizationId: principal.organizationId, id, events, actor: actorOf(principal) };
    const lifecycle = resource.lifecycle;
    const rule = resource.rules?.delete;
    const ended: EndedCredentials = [];
    try {
      if (!lifecycle?.deletableIn && !rule) {
        if (!(await deleteRecord(this.db.pool, resource, target))) throw notFound(this.label);
        return true;
      }
      // Only in some states, or with a rule: read the record locked, then delete.
      return await this.committing(ended, async (client) => {
        const before = await selectRecord(client, resource, target.organizationId, id, true);
        if (!before) throw notFound(this.label);
        if (lifecycle) requireDeletable(this.label, lifecycle, (before as Record<string, unknown>)[lifecycle.field]);
        await rule?.(before, this.rules(client, principal, ended));
        await deleteRecord(client, resource, target);
        return true;
      });
    } catch (error) {
      // Records still naming this one (ON DELETE RESTRICT): a conflict naming its id, even through one of its own references.
      if (error instanceof pg.DatabaseError && REFERENCE_VIOLATIONS.has(error.code ?? '')) {
        const message = this.resource.conflicts?.delete ?? `Other records still refer to this ${this.resource.noun[0]}`;
        throw new DomainError('CONFLICT', message, 'id');
      }
      throw this.refusal(error) ?? error;
    }
  }

  /** The lifecycle's state of a new record: the initial one, or one the create may name (`startsIn`). */
  private startingState(data: Record<string, unknown>): Record<string, unknown> {
    const lifecycle = this.resource.lifecycle;
    if (!lifecycle) return {};
    const named = data[lifecycle.field] as string | null | undefined;
    if (named === undefined || named === null) return { [lifecycle.field]: lifecycle.initial };
    if (!lifecycle.startsIn?.includes(named)) {
      const allowed = lifecycle.startsIn ?? [lifecycle.initial];
      throw new DomainError(
        'VALIDATION_ERROR',
        `'${lifecycle.field}': a new ${this.resource.noun[0]} starts at one of ${allowed.join(', ')}`,
        lifecycle.field,
      );
    }
    return { [lifecycle.field]: named };
  }

  /** The entries of `values` that differ from the record's public values. */
  private changedFields(before: T, values: Record<string, unknown>): Record<string, unknown> {
    const record = before as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(values).filter(([field, value]) => {
        const same = this.comparers.get(field) ?? sameValue;
        return !same(record[field], value);
      }),
    );
  }

  private requireWellFormedReferences(values: Record<string, unknown>) {
    for (const [field, { target }] of Object.entries(this.resource.references)) {
      const id = values[field];
      if (typeof id === 'string' && !isWellFormedIdWith(target.idPrefix, id)) throw unknownReference(field, target);
    }
  }

  /** The insert's conditions: each reference given is a record of the organization. */
  private referenceConditions(values: Record<string, unknown>, organizationId: string) {
    return Object.entries(this.resource.references)
      .filter(([field]) => typeof values[field] === 'string')
      .map(
        ([field, { target }]) =>
          (param: (value: unknown) => string) =>
            `exists (select 1 from "${target.table}" where id = ${param(values[field])} and "organizationId" = ${param(organizationId)})`,
      );
  }

  /** After an insert that wrote nothing: the reference that was not the organization's. */
  private async missingReference(db: Queryable, values: Record<string, unknown>, principal: Principal): Promise<never> {
    await this.requireReferences(this.rules(db, principal), values);
    throw new Error(`${this.label} insert wrote nothing though every reference exists`);
  }

  /**
   * Each reference among `values` is a record of the organization, locked (KEY
   * SHARE) until commit so a concurrent delete cannot slip between; else a 400.
   */
  private async requireReferences(rules: RuleContext, values: Record<string, unknown>) {
    for (const [field, { target }] of Object.entries(this.resource.references)) {
      const id = values[field];
      if (typeof id !== 'string') continue;
      const found = await rules.query(
        `select 1 from "${target.table}" where id = $1 and "organizationId" = $2 for key share`,
        [id, rules.organizationId],
      );
      if (found.length === 0) throw unknownReference(field, target);
    }
  }

  /** What the rules of a change are given (kit/rule-context.ts); `ended`: the credentials it ends. */
  private rules(db: Queryable, principal: Principal, ended: EndedCredentials = []): RuleContext {
    return ruleContextOf(db, principal, { deps: this.db, ended });
  }

  /** A transaction; once committed, this process drops the cached credentials it ended. */
  private async committing<R>(ended: EndedCredentials, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    const result = await inTransaction(this.db.pool, work);
    droppedAfterCommit(this.db, ended);
    return result;
  }

  /** A constraint's refusal as the client's error: a unique field taken (409), a reference gone (400). */
  private refusal(error: unknown): DomainError | undefined {
    const conflict = this.resource.unique && uniqueConflict(error, this.resource.unique);
    if (conflict) return conflict;
    if (error instanceof pg.DatabaseError && REFERENCE_VIOLATIONS.has(error.code ?? '')) {
      const entry = Object.entries(this.resource.references).find(([field]) =>
        error.constraint?.includes(`_${field}_`),
      );
      if (entry) return unknownReference(entry[0], entry[1].target);
      return new DomainError('CONFLICT', `Other records still refer to this ${this.resource.noun[0]}`);
    }
    return undefined;
  }
}

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

/** A 400 naming the field and what it should name: 'no contact with this id in the organization'. */
const unknownReference = (field: string, target: Resource) =>
  invalidField(field, `no ${target.noun[0]} with this id in the organization`);
