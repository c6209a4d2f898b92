// The kit's write path for a new record: the row and its `<thing>.created`
// event in ONE statement (a data-modifying CTE), so a create is one round trip
// with no transaction bookkeeping, and the event commits with the row or not at
// all. The event's data.object is the inserted row in its public shape, built
// by PostgreSQL from the same select list the list fast path uses, so the API's
// answer and the event's object cannot drift.
import type pg from 'pg';
import { newId } from '../../ids.js';
import type { EventType } from '../../jobs/event-types.js';
import { EVENT_INSERT_COLUMNS } from '../../jobs/events.js';
import { sqlSelectOf, type PublicType } from './fields.js';
import { namedStatement } from './statements.js';

export interface NewRecord {
  organizationId: string;
  /** Column values besides organizationId, createdAt and updatedAt (set by the database). */
  values: Record<string, unknown>;
  /** The event the creation raises. */
  event: EventType;
  /**
   * A condition the insert depends on, checked in the same statement (for
   * example that a referenced record is the organization's). `param` adds a
   * parameter and answers its placeholder. When false, nothing is written and
   * the answer is undefined.
   */
  onlyIf?: (param: (value: unknown) => string) => string;
}

/** Inserts the record and its event in one statement; answers the record's public object. */
export async function insertRecord<T>(
  db: pg.Pool | pg.PoolClient,
  { table, type }: { table: string; type: PublicType<T> },
  record: NewRecord,
): Promise<T | undefined> {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const columns = ['organizationId', ...Object.keys(record.values)];
  const values = [record.organizationId, ...Object.values(record.values)].map(param);
  const condition = record.onlyIf ? ` where ${record.onlyIf(param)}` : '';
  const text = `with record as (
      insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}, "updatedAt")
      select ${values.join(', ')}, now()${condition}
      returning ${sqlSelectOf(type, table)}
    ), event as (
      insert into "Event" (${EVENT_INSERT_COLUMNS})
      select ${param(newId('event'))}, $1, ${param(record.event)}, jsonb_build_object('object', to_jsonb(record)) from record
    )
    select * from record`;
  const { rows } = await db.query<T & object>(namedStatement(text, params));
  return rows[0];
}
