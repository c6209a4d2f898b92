import { z } from 'zod';
import { pageOf, PAGINATION_SELECTION, route } from '../../kit/routes.js';
import { eventFilterSchema } from './service.js';

const EVENT_FIELDS = 'id type created data';

// The envelope's data is free-form JSON in GraphQL; its outline is documented here.
const eventSchema = z
  .object({
    id: z.string().describe('Unique per event; deduplicate on it'),
    type: z.string(),
    created: z.int().describe('Unix time in seconds'),
    data: z.object({
      object: z.record(z.string(), z.unknown()),
      previousAttributes: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Event' });

export const eventRoutes = [
  route({
    method: 'get',
    path: '/events',
    tag: 'Events',
    summary: 'List events',
    description: 'Events of the organization whose area the credential can read, oldest first.',
    operation: `query ($page: Int, $limit: Int, $type: EventType, $since: Int) {
      events(page: $page, limit: $limit, type: $type, since: $since) { data { ${EVENT_FIELDS} } ${PAGINATION_SELECTION} } }`,
    query: eventFilterSchema,
    variables: ({ query }) => query,
    status: 200,
    response: pageOf(eventSchema, 'EventPage'),
  }),
  route({
    method: 'get',
    path: '/events/:id',
    tag: 'Events',
    summary: 'Get an event',
    operation: `query ($id: ID!) { event(id: $id) { ${EVENT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: eventSchema,
  }),
];
