// Reading the events outbox: scoped to the organization and to the event types
// the credential's scopes can read.
import { z } from 'zod';
import type { Principal } from '../../../auth/principal.js';
import type { Prisma, PrismaClient } from '../../../db/prisma.js';
import { notFound } from '../../../errors.js';
import { isWellFormedId } from '../../../ids.js';
import { EVENT_TYPES, readableEventTypes, type EventType } from '../../../jobs/event-types.js';
import { eventEnvelope } from '../../../jobs/events.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { parseInput } from '../../../validation.js';
import { MAX_INT, pageSchema, pageWindow, paginationOf, wholeNumber, type Page } from '../../kit/page.js';
import type { Event } from './type.js';

export const eventFilterSchema = pageSchema.extend({
  type: z
    .enum(Object.keys(EVENT_TYPES) as [EventType, ...EventType[]], {
      message: `must be one of ${Object.keys(EVENT_TYPES).join(', ')}`,
    })
    .optional(),
  since: wholeNumber('must be a Unix time in seconds')
    .pipe(z.number().min(0, 'must be a Unix time in seconds').max(MAX_INT, `must be at most ${MAX_INT}`))
    .optional()
    .meta({
      type: 'integer',
      minimum: 0,
      maximum: MAX_INT,
      description: 'Only events created at or after this Unix time.',
    }),
});

export class EventService {
  private readonly prisma: PrismaClient;

  constructor({ prisma }: ServiceDependencies) {
    this.prisma = prisma;
  }

  async list(principal: Principal, args: unknown): Promise<Page<Event>> {
    const filter = parseInput(eventFilterSchema, args);
    const readable = readableEventTypes(principal.scopes);
    const types = filter.type ? readable.filter((type) => type === filter.type) : readable;
    const where: Prisma.EventWhereInput = {
      organizationId: principal.organizationId,
      type: { in: types },
      ...(filter.since !== undefined && { createdAt: { gte: new Date(filter.since * 1000) } }),
    };
    const [rows, total] = await Promise.all([
      this.prisma.event.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...pageWindow(filter) }),
      this.prisma.event.count({ where }),
    ]);
    return { data: rows.map(eventEnvelope), pagination: paginationOf(filter, total) };
  }

  async get(principal: Principal, id: string): Promise<Event> {
    if (!isWellFormedId('event', id)) throw notFound('Event');
    const row = await this.prisma.event.findFirst({
      where: { id, organizationId: principal.organizationId, type: { in: readableEventTypes(principal.scopes) } },
    });
    if (!row) throw notFound('Event');
    return eventEnvelope(row);
  }
}
