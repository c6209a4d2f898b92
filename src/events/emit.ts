// The events outbox. Every change that raises an event writes it in the same
// transaction: a declared resource's changes through the kit's store (row and
// events in one statement, src/graphql/kit/store.ts), the system resources' by
// calling emitEvent with the transaction they write in. Either way the event
// commits with the change or not at all.
// A trigger on this table queues the event's webhook deliveries in "WebhookFanout"
// in the same transaction; the worker's dispatcher (src/jobs/fan-out.ts) makes them jobs.
import { actorOf, type Actor, type ActorType, type Principal } from '../auth/principal.js';
import type { Event as EventRow } from '../generated/prisma/client.js';
import type { Transaction } from '../db/prisma.js';
import { cataloguedEvent } from './catalogue.js';
import type { EventType } from './event.js';
import { EVENT_INSERT_COLUMNS } from './event-row.js';
import type { SystemEventType } from './system-events.js';
import { newId } from '../ids.js';

export interface EmitEvent<T extends object> {
  organizationId: string;
  /** One of the catalogue's (src/events/catalogue.ts): any other name throws. */
  type: EventType;
  /** The subject record as the REST API returns it. */
  object: T;
  /** On updates: the previous values of the fields that changed. */
  previousAttributes?: Partial<T>;
  /** Who made the change (actorOf(principal); SYSTEM_ACTOR for the worker). */
  actor: Actor;
}

export async function emitEvent<T extends object>(tx: Transaction, event: EmitEvent<T>): Promise<EventEnvelope> {
  cataloguedEvent(event.type);
  const data = {
    object: event.object,
    ...(event.previousAttributes && { previousAttributes: event.previousAttributes }),
  } as EventEnvelope['data'];
  const id = newId('event');
  // Raw SQL: through Prisma's model API this insert cost more CPU than the change it records.
  const [row] = await tx.$queryRawUnsafe<{ createdAt: Date }[]>(
    `insert into "Event" (${EVENT_INSERT_COLUMNS}) values ($1, $2, $3, $4::jsonb, $5, $6) returning "createdAt"`,
    id,
    event.organizationId,
    event.type,
    JSON.stringify(data),
    event.actor.type,
    event.actor.id,
  );
  const actor = { type: event.actor.type, id: event.actor.id };
  return { id, type: event.type, created: Math.floor(row!.createdAt.getTime() / 1000), data, actor };
}

/** The event of a change `principal` made to a system resource: in its organization, with it as the actor. */
export function emitEventBy<T extends object>(
  tx: Transaction,
  principal: Principal,
  event: Omit<EmitEvent<T>, 'organizationId' | 'actor' | 'type'> & { type: SystemEventType },
): Promise<EventEnvelope> {
  return emitEvent(tx, { ...event, organizationId: principal.organizationId, actor: actorOf(principal) });
}

/** The event envelope of the specification, {id, type, created, data}, and who made the change. */
export interface EventEnvelope {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
  actor: Actor;
}

export function eventEnvelope(row: EventRow): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    created: Math.floor(row.createdAt.getTime() / 1000),
    data: row.data as unknown as EventEnvelope['data'],
    actor: { type: row.actorType as ActorType, id: row.actorId },
  };
}
