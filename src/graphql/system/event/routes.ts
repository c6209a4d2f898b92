import { sortValueName } from '../../kit/list.js';
import { pageOf, PAGINATION_SELECTION, route } from '../../kit/routes.js';
import { eventSchema } from './payloads.js';
import { eventFilterSchema } from './list.js';

const EVENT_FIELDS = 'id type created data actor { type id }';

export const eventRoutes = [
  route({
    method: 'get',
    path: '/events',
    tag: 'Events',
    summary: 'List events',
    description:
      'Events of the organization whose area the credential can read, oldest first unless `sort=-createdAt`; `objectId` gives one record’s history.',
    operation: `query ($page: Int, $limit: Int, $after: String, $type: EventType, $since: Int, $objectId: ID, $sort: EventSort) {
      events(page: $page, limit: $limit, after: $after, type: $type, since: $since, objectId: $objectId, sort: $sort) { data { ${EVENT_FIELDS} } ${PAGINATION_SELECTION} } }`,
    query: eventFilterSchema,
    variables: ({ query }) => (typeof query.sort === 'string' ? { ...query, sort: sortValueName(query.sort) } : query),
    status: 200,
    // Read when the routes are served: the typed payloads need every declaration loaded.
    get response() {
      return pageOf(eventSchema(), 'EventPage');
    },
  }),
  route({
    method: 'get',
    path: '/events/:id',
    tag: 'Events',
    summary: 'Get an event',
    operation: `query ($id: ID!) { event(id: $id) { ${EVENT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    get response() {
      return eventSchema();
    },
  }),
];
