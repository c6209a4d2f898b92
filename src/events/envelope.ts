// The event envelope of the specification, {id, type, created, data, actor},
// built here only: from a stored event, whoever read it (GET /events, a
// delivery's event and payload, the worker's POST, emitEvent's answer).

import type { Actor, ActorType } from '../auth/principal.js';

export interface EventEnvelope {
  id: string;
  type: string;
  /** Unix time in seconds. */
  created: number;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
  actor: Actor;
}

/** An "Event" row as read: its time a Date (pg, Prisma) or an ISO 8601 string (JSON from SQL). */
export interface StoredEvent {
  id: string;
  type: string;
  createdAt: Date | string;
  data: unknown;
  actorType: string;
  actorId: string | null;
}

export function eventEnvelope(row: StoredEvent): EventEnvelope {
  const time = typeof row.createdAt === 'string' ? Date.parse(row.createdAt) : row.createdAt.getTime();
  return {
    id: row.id,
    type: row.type,
    created: Math.floor(time / 1000),
    data: row.data as EventEnvelope['data'],
    actor: { type: row.actorType as ActorType, id: row.actorId },
  };
}
