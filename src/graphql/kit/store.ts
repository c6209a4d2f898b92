// The kit's one write path. Every change to a resource's record (create,
// update, action, delete) is ONE statement that writes the row and its events
// together (a data-modifying CTE), so the event commits with the change or not
// at all; an event's data.object is always `to_jsonb` of the row in its public
// shape, selected by the same list the list fast path uses, so the API's answer
// and the event's object cannot drift. A change that must read first (an
// update's locked row, a rule's check) runs in a transaction on one connection;
// a create without such a rule is that one statement alone: one round trip.
import type pg from 'pg';
import type { Actor } from '../../auth/principal.js';
import { newId, newIdWith } from '../../ids.js';
import type { EventType } from '../../events/event.js';
import { eventRow, insertEvents } from '../../events/insert.js';
import { type PublicType } from './fields.js';
import { sqlSelectOf } from './field-sql.js';
import type { RuleContext } from './lifecycle.js';
import { requireDeclaredEvent, type Resource } from './resource.js';
import { namedStatement } from './statements.js';

/** A connection to run statements on: the pool (one statement) or a transaction's client. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface RecordTable<T> {
  table: string;
  type: PublicType<T>;
  /** false: the table has no updatedAt to stamp (an API key's, which only revocation changes). */
  updatedAt?: boolean;
}

/** The stamp column of a table's inserts and updates, if it has one. */
const stamped = ({ updatedAt }: Pick<RecordTable<unknown>, 'updatedAt'>) => updatedAt !== false;

/** An event the change raises; `previous` adds the changed fields' previous values. */
export interface RaisedEvent {
  type: EventType;
  previousAttributes?: Record<string, unknown>;
}

/** A column value meaning the transaction's time, the same `now()` as updatedAt (a deal's closedAt). */
export const NOW = Symbol('now');

/** Builds a statement's parameter list: `param(value)` answers its placeholder (NOW: `now()`). */
function parameters() {
  const values: unknown[] = [];
  return { values, param: (value: unknown) => (value === NOW ? 'now()' : `$${values.push(value)}`) };
}

/**
 * The CTE that inserts the events of the change `record` into the outbox, in
 * order, each with who made it (two more parameters, shared by the events).
 */
function eventsOf(
  events: RaisedEvent[],
  organization: string,
  actor: Actor,
  param: (value: unknown) => string,
): string {
  if (!events.length) return '';
  const actorType = param(actor.type);
  const actorId = param(actor.id);
  const rows = events.map(({ type, previousAttributes }) =>
    eventRow(
      {
        id: param(newId('event')),
        organizationId: organization,
        type: param(type),
        object: 'to_jsonb(record)',
        ...(previousAttributes && { previousAttributes: `${param(JSON.stringify(previousAttributes))}::jsonb` }),
        actorType,
        actorId,
      },
      'from record',
    ),
  );
  return `, event as (${insertEvents(rows)})`;
}

const quoted = (column: string) => `"${column}"`;

export interface Insert {
  organizationId: string;
  /** Column values besides organizationId, createdAt and updatedAt (set by the database). */
  values: Record<string, unknown>;
  events: RaisedEvent[];
  /** Who makes the change (the events' actor). */
  actor: Actor;
  /**
   * Conditions the insert depends on, checked in the same statement (that a
   * referenced record is the organization's). When one fails nothing is written
   * and the answer is undefined.
   */
  onlyIf?: ((param: (value: unknown) => string) => string)[];
}

/** Inserts the record and its events in one statement; answers the record's public object. */
export async function insertRecord<T>(db: Queryable, table: RecordTable<T>, insert: Insert) {
  const { rows } = await db.query<T & object>(insertStatement(table, insert));
  return rows[0];
}

/**
 * From a rule, in its change's transaction: inserts a record of another
 * declared resource (the compensation an employee's new salary records) with
 * its events, by the same statement as a create, made by the rule's actor. The
 * events are ones that resource declares; its id is made here.
 */
export async function insertRecordFromRule<T extends object>(
  rules: RuleContext,
  resource: Resource<T>,
  insert: Pick<Insert, 'values' | 'events'>,
) {
  for (const { type } of insert.events) requireDeclaredEvent(resource as Resource, type);
  const { organizationId, actor } = rules;
  const values = { id: newIdWith(resource.idPrefix), ...insert.values };
  const { text, values: parameters } = insertStatement(resource, { ...insert, values, organizationId, actor });
  return (await rules.query<T & object>(text, parameters as unknown[], { prepared: true }))[0]!;
}

function insertStatement<T>(target: RecordTable<T>, insert: Insert) {
  const { table, type } = target;
  const stamp = stamped(target);
  const { values, param } = parameters();
  const columns = ['organizationId', ...Object.keys(insert.values)];
  const organization = param(insert.organizationId);
  const given = [organization, ...Object.values(insert.values).map(param)];
  const conditions = (insert.onlyIf ?? []).map((condition) => condition(param));
  const text = `with record as (
      insert into "${table}" (${columns.map(quoted).join(', ')}${stamp ? ', "updatedAt"' : ''})
      select ${given.join(', ')}${stamp ? ', now()' : ''}${conditions.length ? ` where ${conditions.join(' and ')}` : ''}
      returning ${sqlSelectOf(type, table)}
    )${eventsOf(insert.events, organization, insert.actor, param)}
    select * from record`;
  return namedStatement(text, values);
}

export interface InsertMany {
  organizationId: string;
  /** Each record's column values (the same columns, in the same order), besides organizationId and the stamps. */
  rows: Record<string, unknown>[];
  /** The event each inserted record raises, if any (a create's). */
  event?: EventType;
  actor: Actor;
}

/** Rows a statement may take: PostgreSQL allows 65,535 parameters (a row takes one a column). */
const MAX_PARAMETERS = 60_000;

/**
 * Inserts many records and each one's event, by one statement per chunk (the
 * create's statement with many rows). A row that would break a unique
 * constraint is skipped, not refused (ON CONFLICT DO NOTHING: against the
 * table and against the rows before it): the answer is the ids inserted, and
 * the caller names what the others clashed on. The events are written in the
 * rows' order, each with its own id and the record's public object.
 */
export async function insertRecords<T>(db: Queryable, table: RecordTable<T>, insert: InsertMany): Promise<Set<string>> {
  const inserted = new Set<string>();
  const [first] = insert.rows;
  if (!first) return inserted;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / (Object.keys(first).length + 1)));
  for (let at = 0; at < insert.rows.length; at += perStatement) {
    const chunk = { ...insert, rows: insert.rows.slice(at, at + perStatement) };
    const { rows } = await db.query<{ id: string }>(insertManyStatement(table, chunk));
    for (const { id } of rows) inserted.add(id);
  }
  return inserted;
}

function insertManyStatement<T>({ table, type }: RecordTable<T>, insert: InsertMany): pg.QueryConfig {
  const { values, param } = parameters();
  const names = Object.keys(insert.rows[0]!);
  const organization = param(insert.organizationId);
  const tuples = insert.rows.map((row) => {
    if (Object.keys(row).length !== names.length) throw new Error(`${table}: the rows of one insert differ in columns`);
    return `(${[organization, ...names.map((name) => param(row[name]))].join(', ')}, now())`;
  });
  let events = '';
  if (insert.event) {
    const ids = param(insert.rows.map((row) => row.id));
    const eventIds = param(insert.rows.map(() => newId('event')));
    const [type, actorType, actorId] = [param(insert.event), param(insert.actor.type), param(insert.actor.id)];
    events = `, raised as (
      select * from unnest(${ids}::text[], ${eventIds}::text[]) with ordinality as raised(id, "eventId", n)
    ), event as (${insertEvents([
      eventRow(
        { id: 'raised."eventId"', organizationId: organization, type, object: 'to_jsonb(record)', actorType, actorId },
        'from record join raised on raised.id = record.id order by raised.n',
      ),
    ])})`;
  }
  const text = `with record as (
      insert into "${table}" (${['organizationId', ...names].map(quoted).join(', ')}, "updatedAt")
      values ${tuples.join(', ')}
      on conflict do nothing
      returning ${sqlSelectOf(type, table)}
    )${events}
    select record.id from record`;
  // Not a named statement: its text varies with the row count and would fill the names' cache.
  return { text, values };
}

export interface Update {
  organizationId: string;
  id: string;
  /** The changed columns; updatedAt is set by the statement. */
  changes: Record<string, unknown>;
  events: RaisedEvent[];
  /** Who makes the change (the events' actor). */
  actor: Actor;
}

/** Updates the record and writes its events in one statement; answers the public object (undefined: no row). */
export async function updateRecord<T>(db: Queryable, table: RecordTable<T>, update: Update) {
  const { rows } = await db.query<T & object>(updateStatement(table, update));
  return rows[0];
}

/**
 * From a rule, in its change's transaction: updates a record of another
 * declared resource (the invoice a payment pays) with its events, by the same
 * statement as updateRecord, made by the rule's actor. The events are ones that
 * resource declares (its `others`: invoice.paid). Lock the record first
 * (`select … for update` through `rules.query`) when the change depends on what it holds.
 */
export async function updateRecordFromRule<T extends object>(
  rules: RuleContext,
  resource: Resource<T>,
  update: Omit<Update, 'organizationId' | 'actor'>,
) {
  for (const { type } of update.events) requireDeclaredEvent(resource as Resource, type);
  const { organizationId, actor } = rules;
  const { text, values } = updateStatement(resource, { ...update, organizationId, actor });
  return (await rules.query<T & object>(text, values as unknown[], { prepared: true }))[0];
}

function updateStatement<T>(target: RecordTable<T>, update: Update) {
  const { table, type } = target;
  const { values, param } = parameters();
  const id = param(update.id);
  const organization = param(update.organizationId);
  const sets = Object.entries(update.changes).map(([column, value]) => `${quoted(column)} = ${param(value)}`);
  if (stamped(target)) sets.push(`"updatedAt" = now()`);
  const text = `with record as (
      update "${table}" set ${sets.join(', ')}
      where id = ${id} and "organizationId" = ${organization}
      returning ${sqlSelectOf(type, table)}
    )${eventsOf(update.events, organization, update.actor, param)}
    select * from record`;
  return namedStatement(text, values);
}

/** A record to raise events on (or delete with them): which, whose, and by whom. */
type EventTarget = { organizationId: string; id: string; events: RaisedEvent[]; actor: Actor };

/**
 * Writes the events of a record this transaction wrote and changes no more (a
 * create whose afterCreate rule wrote other records): the record read in its
 * public shape, as an update would answer it, with no new row version.
 */
export function raiseEvents<T>(db: Queryable, { table, type }: RecordTable<T>, target: EventTarget) {
  return withEvents<T>(
    db,
    target,
    (id, organization) =>
      `select ${sqlSelectOf(type, table)} from "${table}" where id = ${id} and "organizationId" = ${organization}`,
  );
}

/** Deletes the record (and writes its events); answers its last public object, or undefined. */
export function deleteRecord<T>(db: Queryable, { table, type }: RecordTable<T>, target: EventTarget) {
  return withEvents<T>(
    db,
    target,
    (id, organization) =>
      `delete from "${table}" where id = ${id} and "organizationId" = ${organization}
      returning ${sqlSelectOf(type, table)}`,
  );
}

/** One statement: `record` (the row in its public shape, from `statement`) and its events; answers the row. */
async function withEvents<T>(
  db: Queryable,
  target: EventTarget,
  statement: (id: string, organization: string) => string,
): Promise<(T & object) | undefined> {
  const { values, param } = parameters();
  const id = param(target.id);
  const organization = param(target.organizationId);
  const text = `with record as (
      ${statement(id, organization)}
    )${eventsOf(target.events, organization, target.actor, param)}
    select * from record`;
  const { rows } = await db.query<T & object>(namedStatement(text, values));
  return rows[0];
}
