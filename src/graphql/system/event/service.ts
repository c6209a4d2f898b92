// Reading the events outbox: scoped to the organization and to the event types
// the credential's scopes can read. The list is the kit's (kit/list-query.ts);
// it and the lookup read the same columns, made envelopes by the one builder
// (src/events/envelope.ts).
import type pg from 'pg';
import type { Actor, Principal } from '../../../auth/principal.js';
import { notFound } from '../../../errors.js';
import { readableEventTypes, visibleEventData } from '../../../events/catalogue.js';
import { eventEnvelope, type StoredEvent } from '../../../events/envelope.js';
import { isWellFormedId } from '../../../ids.js';
import { isoTimestamp } from '../../kit/fields.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { actorNames } from './actor-names.js';
import { eventList, ofTypes } from './list.js';
import { Event } from './type.js';

/** An event's stored columns, its time as the API writes it (the cursor's key). */
const STORED = `"Event".id, "Event".type, ${isoTimestamp('"Event"."createdAt"')} as "createdAt", "Event".data,
  "Event"."actorType", "Event"."actorId"`;

export class EventService {
  private readonly pool: pg.Pool;

  constructor({ pool }: ServiceDependencies) {
    this.pool = pool;
  }

  list(principal: Principal, args: unknown): Promise<Page<Event>> {
    const source = {
      table: 'Event',
      type: Event,
      list: eventList,
      narrow: { where: ofTypes, value: readableEventTypes(principal.scopes) },
      rows: { select: STORED, map: (row: object) => visibleTo(principal, eventEnvelope(row as StoredEvent)) },
    };
    return listPage(this.pool, source, principal, args);
  }

  /** The names of these actors of the caller's organization's events (actor-names.ts). */
  actorNames(principal: Principal, actors: readonly Actor[]): Promise<(string | null)[]> {
    return actorNames(this.pool, principal.organizationId, actors);
  }

  async get(principal: Principal, id: string): Promise<Event> {
    if (!isWellFormedId('event', id)) throw notFound('Event');
    const { rows } = await this.pool.query<StoredEvent>(
      `select ${STORED} from "Event" where "Event".id = $1 and "Event"."organizationId" = $2 and ${ofTypes('$3')}`,
      [id, principal.organizationId, readableEventTypes(principal.scopes)],
    );
    if (!rows[0]) throw notFound('Event');
    return visibleTo(principal, eventEnvelope(rows[0]));
  }
}

/** The event as the caller may see it: its subject without the fields needing a scope it lacks (a salary). */
function visibleTo(principal: Principal, event: Event): Event {
  const data = visibleEventData(event.type, event.data, principal.scopes);
  return data === event.data ? event : { ...event, data };
}
