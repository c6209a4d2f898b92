// Reading the events outbox: scoped to the organization and to the event types
// the credential's scopes can read.
import { z } from 'zod';
import type { Principal } from '../../../auth/principal.js';
import type pg from 'pg';
import type { PrismaClient } from '../../../db/prisma.js';
import type { Event as EventRow } from '../../../generated/prisma/client.js';
import { notFound } from '../../../errors.js';
import { isWellFormedId } from '../../../ids.js';
import { EVENT_TYPES, readableEventTypes, visibleEventData } from '../../../events/catalogue.js';
import { eventEnvelope } from '../../../events/emit.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { parseInput } from '../../../validation.js';
import { namedStatement } from '../../kit/statements.js';
import { text } from '../../kit/values.js';
import { keysetOf, nextCursor } from '../../kit/cursor.js';
import { countRows, refusePageWithCursor } from '../../kit/list-query.js';
import { MAX_INT, pageSchema, pageWindow, paginationOf, wholeNumber, type Page } from '../../kit/page.js';
import type { Actor } from '../../../auth/principal.js';
import { actorNames } from './actor-names.js';
import type { Event } from './type.js';

/** The orders an event list takes: oldest first (the default), newest first. */
export const EVENT_SORTS = ['createdAt', '-createdAt'] as const;

// Strict: a parameter the list does not take is a 400 naming it.
export const eventFilterSchema = z.strictObject({
  ...pageSchema.shape,
  type: z
    .enum(EVENT_TYPES as [string, ...string[]], {
      message: `must be one of ${EVENT_TYPES.join(', ')}`,
    })
    .optional()
    .meta({ description: 'Only events of this type.' }),
  objectId: text(100)
    .optional()
    .meta({ description: "Only events about this record (`data.object.id`): the record's history, oldest first." }),
  since: wholeNumber('must be a Unix time in seconds')
    .pipe(z.number().min(0, 'must be a Unix time in seconds').max(MAX_INT, `must be at most ${MAX_INT}`))
    .optional()
    .meta({
      type: 'integer',
      minimum: 0,
      maximum: MAX_INT,
      description: 'Only events created at or after this Unix time.',
    }),
  sort: z
    .enum(EVENT_SORTS, { message: 'must be createdAt or -createdAt' })
    .optional()
    .meta({ description: 'createdAt (the default): oldest first; -createdAt: newest first. Then by id.' }),
});

/**
 * The organization's events of `types`, narrowed by the filters given. `objectId`
 * reads the expression index "Event_organizationId_objectId_createdAt_id_idx"
 * (the same expression), so a record's history costs no scan of the organization's events.
 */
export function eventConditions(
  organizationId: string,
  types: readonly string[] | undefined,
  { since, objectId }: { since?: number; objectId?: string },
): { sql: string; params: unknown[] } {
  const params: unknown[] = [organizationId];
  const conditions = [`"Event"."organizationId" = $1`];
  if (types) conditions.push(`"Event".type = any($${params.push(types)})`);
  if (since !== undefined) conditions.push(`"Event"."createdAt" >= to_timestamp($${params.push(since)})`);
  if (objectId !== undefined) conditions.push(`("Event".data -> 'object' ->> 'id') = $${params.push(objectId)}`);
  return { sql: conditions.join(' and '), params };
}

export class EventService {
  private readonly prisma: PrismaClient;
  private readonly pool: pg.Pool;

  constructor({ prisma, pool }: ServiceDependencies) {
    this.prisma = prisma;
    this.pool = pool;
  }

  async list(principal: Principal, args: unknown): Promise<Page<Event>> {
    const filter = parseInput(eventFilterSchema, args);
    refusePageWithCursor(filter);
    const readable = readableEventTypes(principal.scopes);
    const types = filter.type ? readable.filter((type) => type === filter.type) : readable;
    const where = eventConditions(principal.organizationId, types, filter);
    const params = [...where.params];
    const { type, objectId, since, after } = filter;
    const keyset = keysetOf('Event', { sort: filter.sort, after, filters: { type, objectId, since } }, params);
    const condition = keyset.condition ? `${where.sql} and ${keyset.condition}` : where.sql;
    const { skip, take } = pageWindow(filter);
    const n = params.length;
    const order = filter.sort === '-createdAt' ? '"createdAt" desc, id desc' : '"createdAt", id';
    const page = `select * from "Event" where ${condition} order by ${order} limit $${n + 1} offset $${n + 2}`;
    const [rows, counted] = await Promise.all([
      this.pool.query<EventRow>(namedStatement(page, [...params, take + 1, skip])),
      countRows(this.pool, '"Event"', where),
    ]);
    const more = rows.rows.length > take;
    const data = more ? rows.rows.slice(0, take) : rows.rows;
    const last = data.at(-1);
    const lastKey = last ? [{ id: last.id, createdAt: last.createdAt.toISOString() }] : [];
    return {
      data: data.map((row) => visibleTo(principal, eventEnvelope(row))),
      pagination: paginationOf(filter, { ...counted, next: nextCursor(lastKey, more, keyset.binding, 'createdAt') }),
    };
  }

  /** The names of these actors of the caller's organization's events (actor-names.ts). */
  actorNames(principal: Principal, actors: readonly Actor[]): Promise<(string | null)[]> {
    return actorNames(this.pool, principal.organizationId, actors);
  }

  async get(principal: Principal, id: string): Promise<Event> {
    if (!isWellFormedId('event', id)) throw notFound('Event');
    const row = await this.prisma.event.findFirst({
      where: { id, organizationId: principal.organizationId, type: { in: readableEventTypes(principal.scopes) } },
    });
    if (!row) throw notFound('Event');
    return visibleTo(principal, eventEnvelope(row));
  }
}

/** The event as the caller may see it: its subject without the fields needing a scope it lacks (a salary). */
function visibleTo(principal: Principal, event: Event): Event {
  const data = visibleEventData(event.type, event.data, principal.scopes);
  return data === event.data ? event : { ...event, data };
}
