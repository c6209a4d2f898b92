import { eventFilterSchema } from '../../graphql/system/event.service.js';
import { eventSchema, pageOf } from '../response-schemas.js';
import { route } from '../route.js';

const EVENT_FIELDS = 'id type created data';

export const eventRoutes = [
  route({
    method: 'get',
    path: '/events',
    scope: null,
    tag: 'Events',
    summary: 'List events',
    description: 'Events of the organization whose area the credential can read, oldest first.',
    operation: `query ($page: Int, $limit: Int, $type: String, $since: Int) {
      events(page: $page, limit: $limit, type: $type, since: $since) {
        data { ${EVENT_FIELDS} } pagination { page limit total pages } } }`,
    query: eventFilterSchema,
    variables: ({ query }) => query,
    status: 200,
    response: pageOf(eventSchema, 'EventPage'),
  }),
  route({
    method: 'get',
    path: '/events/:id',
    scope: null,
    tag: 'Events',
    summary: 'Get an event',
    operation: `query ($id: ID!) { event(id: $id) { ${EVENT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: eventSchema,
  }),
];
