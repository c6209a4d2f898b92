// The service every declared resource gets: list, get, create, update, delete
// and its actions (its lifecycle's and its records'), scoped to the caller's organization. Writes go
// through store.ts (row and events in one statement); what the declaration
// says (defaults, references, unique fields, lifecycle, events) is applied
// here, and what is particular to the resource runs as its rules.
import type pg from 'pg';
import { actorOf, type Principal } from '../../auth/principal.js';
import { DomainError, notFound } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { requireSettable } from './field-scopes.js';
import { storedColumns, updateValues } from './inputs.js';
import { changedFields, refuseChangedFixed, type FixedFields } from './fixed-fields.js';
import {
  refuseLeavingFinal,
  requireActionFrom,
  requireDeletable,
  requireEditable,
  type RuleContext,
} from './lifecycle.js';
import { checkCreates, writeCreates, type CheckedCreates, type CreateOutcome } from './bulk-create.js';
import { newRecordValues } from './create-values.js';
import { listPage } from './list-query.js';
import type { ServiceDependencies } from './module.js';
import type { Page } from './page.js';
import { previousAttributes, requireWellFormedId, selectRecord } from './records.js';
import {
  constraintRefusal,
  isReferenceViolation,
  referenceConditions,
  requireReferences,
  requireWellFormedReferences,
} from './reference-checks.js';
import { refuseCycles } from './references.js';
import { pagesByKey, recordsAmong, type RelationPage } from './relation-reads.js';
import { actionsOf, type Resource } from './resource.js';
import { updateEventsOf } from './update-events.js';
import { droppedAfterCommit, ruleContextOf, type EndedCredentials } from './rule-context.js';
import { withSecret, type IssuedSecret } from './secrets.js';
import {
  deleteRecord,
  insertRecord,
  NOW,
  raiseEvents,
  updateRecord,
  type Queryable,
  type RaisedEvent,
} from './store.js';
import { inLazyTransaction, inTransaction } from './transactions.js';

export class ResourceService<T extends { id: string }> {
  constructor(
    readonly resource: Resource<T>,
    // A system resource's service extends this one with what is its own (the OAuth endpoints' client lookups).
    protected readonly db: ServiceDependencies,
  ) {}

  /** How messages name it: the type's name (`Contact not found`), a system resource's noun (`OAuth app not found`). */
  private get label() {
    const { system, noun, type } = this.resource;
    return system ? noun[0][0]!.toUpperCase() + noun[0].slice(1) : type.name;
  }

  /** One page of the organization's records; `parsed`: the arguments were validated already (REST). */
  list(principal: Principal, args: unknown, parsed = false): Promise<Page<T>> {
    const { table, type, list, visibleTo } = this.resource;
    return listPage(this.db.pool, { table, type, list, narrow: visibleTo?.(principal) }, principal, args, parsed);
  }

  async get(principal: Principal, id: string): Promise<T> {
    requireWellFormedId(this.resource.idPrefix, this.label, id);
    const narrow = this.resource.visibleTo?.(principal);
    const record = await selectRecord(this.db.pool, this.resource, principal.organizationId, id, false, narrow);
    if (!record) throw notFound(this.label);
    return record;
  }

  /** The organization's records among `ids`, in no particular order (for a relation's loader). */
  findMany(principal: Principal, ids: readonly string[]): Promise<T[]> {
    return recordsAmong(this.db.pool, this.resource, principal.organizationId, ids);
  }

  /** For each key, one page of the records whose `field` holds it (relation-reads.ts). */
  pagesBy(principal: Principal, field: string, keys: readonly string[], window: RelationPage): Promise<Page<T>[]> {
    return pagesByKey(this.db.pool, this.resource, principal.organizationId, field, keys, window);
  }

  async create(principal: Principal, input: unknown, parsed = false): Promise<T> {
    const { resource } = this;
    const declared = resource.input!;
    const checked = newRecordValues(resource, principal, input, parsed);
    const prepare = resource.rules?.prepare;
    // Awaited only where a resource has it: no extra turn on every other create.
    const values = prepare ? await prepare(checked, this.db.config) : checked;
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
        onlyIf: referenceConditions(resource as Resource, columns, organizationId),
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

  /** Many creates at once, each as `create` would make it (bulk-create.ts). */
  async createMany(principal: Principal, inputs: readonly unknown[], parsed = false): Promise<CreateOutcome[]> {
    return this.writeCreates(this.checkCreates(principal, inputs, parsed));
  }

  /** createMany's first half, which needs no database (bulk-create.ts). */
  checkCreates(principal: Principal, inputs: readonly unknown[], parsed = false): CheckedCreates {
    return checkCreates(this.resource as Resource, this.label, principal, inputs, parsed);
  }

  /** createMany's second half: writes the checked creates (bulk-create.ts). */
  writeCreates(checked: CheckedCreates): Promise<CreateOutcome[]> {
    const create = (input: unknown) => this.create(checked.principal, input, checked.parsed);
    return writeCreates(this.resource as Resource, this.db, checked, create);
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
    requireWellFormedReferences(resource as Resource, values);
    const { organizationId } = principal;
    const actor = actorOf(principal);
    const { lifecycle } = resource;
    if (lifecycle && values[lifecycle.field] === null) {
      throw new DomainError('VALIDATION_ERROR', `'${lifecycle.field}' cannot be cleared`, lifecycle.field);
    }
    const prepare = resource.rules?.prepare;
    const prepared = prepare ? await prepare(values, this.db.config) : values;
    try {
      return await this.onLocked(principal, id, async (before, client, rules) => {
        const given = resource.rules?.settle?.(prepared, before, rules) ?? prepared;
        const state = lifecycle && (before as Record<string, unknown>)[lifecycle.field];
        refuseChangedFixed(before, fixed, resource.type);
        const changes = changedFields(resource.type, before, given);
        const moved = Boolean(lifecycle?.update && lifecycle.field in changes);
        if (moved) refuseLeavingFinal(this.label, resource.noun[0], lifecycle!, state);
        requireEditable(this.label, lifecycle, state);
        if (Object.keys(changes).length === 0) return before;
        resource.rules?.check?.({ ...before, ...changes });
        await requireReferences(resource as Resource, rules, changes);
        await refuseCycles(rules, resource as Resource, id, changes);
        Object.assign(changes, await resource.rules?.update?.({ before, changes, given }, rules));
        const reachesFinal = moved && Boolean(lifecycle!.final?.states.includes(changes[lifecycle!.field] as string));
        if (reachesFinal && lifecycle!.update!.stampFinal) changes[lifecycle!.update!.stampFinal] = NOW;
        const events = updateEventsOf(resource, before, changes, { moved, reachesFinal });
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
    try {
      return await this.onLocked(principal, id, async (before, client, rules) => {
        const moves = action.from && lifecycle;
        if (moves) requireActionFrom(this.label, name, moves, String((before as Record<string, unknown>)[moves.field]));
        if (action.leaves?.(before)) return before;
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
    try {
      if (!lifecycle?.deletableIn && !rule) {
        if (!(await deleteRecord(this.db.pool, resource, target))) throw notFound(this.label);
        return true;
      }
      // Only in some states, or with a rule: read the record locked, then delete.
      return await this.onLocked(principal, id, async (before, client, rules) => {
        if (lifecycle) requireDeletable(this.label, lifecycle, (before as Record<string, unknown>)[lifecycle.field]);
        await rule?.(before, rules);
        await deleteRecord(client, resource, target);
        return true;
      });
    } catch (error) {
      // Records still naming this one (ON DELETE RESTRICT): a conflict naming its id, even through one of its own references.
      if (isReferenceViolation(error)) {
        const message = this.resource.conflicts?.delete ?? `Other records still refer to this ${this.resource.noun[0]}`;
        throw new DomainError('CONFLICT', message, 'id');
      }
      throw this.refusal(error) ?? error;
    }
  }

  /** After an insert that wrote nothing: the reference that was not the organization's. */
  private async missingReference(db: Queryable, values: Record<string, unknown>, principal: Principal): Promise<never> {
    await requireReferences(this.resource as Resource, this.rules(db, principal), values);
    throw new Error(`${this.label} insert wrote nothing though every reference exists`);
  }

  /** What the rules of a change are given (kit/rule-context.ts); `ended`: the credentials it ends. */
  private rules(db: Queryable, principal: Principal, ended: EndedCredentials = []): RuleContext {
    return ruleContextOf(db, principal, { deps: this.db, ended });
  }

  /**
   * `work` on the caller's record, locked FOR UPDATE in a transaction (404 when there is none); once
   * committed, this process drops the cached credentials its rules ended.
   */
  private async onLocked<R>(
    principal: Principal,
    id: string,
    work: (before: T, client: pg.PoolClient, rules: RuleContext) => Promise<R>,
  ): Promise<R> {
    const ended: EndedCredentials = [];
    const result = await inTransaction(this.db.pool, async (client) => {
      const before = await selectRecord(client, this.resource, principal.organizationId, id, true);
      if (!before) throw notFound(this.label);
      return work(before, client, this.rules(client, principal, ended));
    });
    droppedAfterCommit(this.db, ended);
    return result;
  }

  /** A constraint's refusal as the client's error (reference-checks.ts). */
  private refusal(error: unknown): DomainError | undefined {
    return constraintRefusal(this.resource as Resource, error);
  }
}
