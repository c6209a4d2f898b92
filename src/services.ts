// The services every transport reaches, built once from explicit dependencies.
import type pg from 'pg';
import type { PrismaClient } from './db/prisma.js';
import { ContactService } from './graphql/crm/contact.service.js';
import { EventService } from './graphql/system/event.service.js';

export interface Services {
  prisma: PrismaClient;
  contacts: ContactService;
  events: EventService;
}

export function createServices(prisma: PrismaClient, pool: pg.Pool): Services {
  return {
    prisma,
    contacts: new ContactService(prisma, pool),
    events: new EventService(prisma),
  };
}
