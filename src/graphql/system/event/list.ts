// The events list's arguments, written once: the schema (REST query and GraphQL
// arguments alike) and the filters' SQL, read by GET /events through the kit's
// list (kit/list-query.ts) and by an export of events (export/sources.ts).
import { z } from 'zod';
import { EVENT_TYPES } from '../../../events/catalogue.js';
import { filter, whereOf } from '../../kit/list.js';
import { MAX_INT, pageSchema, wholeNumber } from '../../kit/page.js';
import { text } from '../../kit/values.js';

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

const { shape } = eventFilterSchema;

/**
 * The list's filters. `objectId` reads the expression index
 * "Event_organizationId_objectId_createdAt_id_idx" (the same expression), so a
 * record's history costs no scan of the organization's events.
 */
export const eventList = {
  schema: eventFilterSchema,
  filters: {
    type: filter(shape.type, { description: 'Only events of this type.', where: (p) => `"Event".type = ${p}` }),
    since: filter(shape.since, {
      description: 'Only events created at or after this Unix time.',
      where: (p) => `"Event"."createdAt" >= to_timestamp(${p})`,
    }),
    objectId: filter(shape.objectId, {
      description: 'Only events about this record.',
      where: (p) => `("Event".data -> 'object' ->> 'id') = ${p}`,
    }),
  },
};

/** Events of `types` only (none: every type): the types a caller's scopes read. */
export const ofTypes = (param: string) => `"Event".type = any(${param})`;

/** The organization's events of `types` (undefined: all), narrowed by the filters given. */
export function eventConditions(
  organizationId: string,
  types: readonly string[] | undefined,
  filters: { type?: string; since?: number; objectId?: string },
): { sql: string; params: unknown[] } {
  const where = whereOf(eventList, organizationId, filters, 'Event');
  if (types) where.sql += ` and ${ofTypes(`$${where.params.push(types)}`)}`;
  return where;
}
