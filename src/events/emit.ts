// The events outbox. Every change that raises an event writes it in the same
// transaction: a declared resource's changes through the kit's store (row and
// events in one statement, src/graphql/kit/store.ts), the system resources' by
// calling emitEvent with the transaction they write in. Either way the event
// commits with the change or not at all.
// A trigger on this table queues the event's webhook deliveries in "WebhookFanout"
// in the same transaction; the worker's dispatcher (src/jobs/fan-out.ts) makes them jobs.
import { actorOf, type Actor, type Principal } from '../auth/principal.js';
import type { Transaction } from '../db/prisma.js';
import { newId } from '../ids.js';
import { cataloguedEvent } from './catalogue.js';
import { eventEnvelope, type EventEnvelope } from './envelope.js';
import type { EventType } from './event.js';
import { eventRow, insertEvents } from './insert.js';
import type { SystemEventType } from './system-events.js';

export type { EventEnvelope } from './envelope.js';

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
  return insertEvent(tx, event);
}

/** The parameters' places: $1 id, $2 organization, $3 type, $4 object, $5 and $6 the actor, $7 previous values. */
const PARAMETERS = { id: '$1', organizationId: '$2', type: '$3', object: '$4::jsonb', actorType: '$5', actorId: '$6' };
const INSERT = `${insertEvents([eventRow(PARAMETERS)])} returning "createdAt"`;
const INSERT_CHANGE = `${insertEvents([eventRow({ ...PARAMETERS, previousAttributes: '$7::jsonb' })])} returning "createdAt"`;

/**
 * Writes the event in `tx`, whatever its type: emitEvent's, after the catalogue's
 * check; the webhook test event's (a type stored but not catalogued) directly.
 */
export async function insertEvent<T extends object>(tx: Transaction, event: EmitEvent<T>): Promise<EventEnvelope> {
  const id = newId('event');
  const { organizationId, type, object, previousAttributes, actor } = event;
  const values = [id, organizationId, type, JSON.stringify(object), actor.type, actor.id];
  // Raw SQL: through Prisma's model API this insert cost more CPU than the change it records.
  const [row] = await (previousAttributes
    ? tx.$queryRawUnsafe<{ createdAt: Date }[]>(INSERT_CHANGE, ...values, JSON.stringify(previousAttributes))
    : tx.$queryRawUnsafe<{ createdAt: Date }[]>(INSERT, ...values));
  const data = { object, ...(previousAttributes && { previousAttributes }) };
  return eventEnvelope({ id, type, createdAt: row!.createdAt, data, actorType: actor.type, actorId: actor.id });
}

/** The event of a change `principal` made to a system resource: in its organization, with it as the actor. */
export function emitEventBy<T extends object>(
  tx: Transaction,
  principal: Principal,
  event: Omit<EmitEvent<T>, 'organizationId' | 'actor' | 'type'> & { type: SystemEventType },
): Promise<EventEnvelope> {
  return emitEvent(tx, { ...event, organizationId: principal.organizationId, actor: actorOf(principal) });
}
