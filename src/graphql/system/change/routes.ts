import { z } from 'zod';
import { ACTOR_TYPES } from '../../../auth/principal.js';
import { route } from '../../kit/routes.js';
import { changeQuerySchema } from './service.js';
import { CHANGE_OPERATIONS } from './type.js';

const CHANGE_FIELDS = 'cursor resource id operation object previousAttributes actor { type id } at';

const changeSchema = z
  .object({
    cursor: z.string(),
    resource: z.string().meta({ description: 'The resource’s REST name.' }),
    id: z.string(),
    operation: z.enum(CHANGE_OPERATIONS),
    object: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The record after the change; for a delete, as it was.' }),
    previousAttributes: z.record(z.string(), z.unknown()).nullable(),
    actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string().nullable() }),
    at: z.iso.datetime(),
  })
  .meta({ id: 'Change' });

const changePageSchema = z
  .object({
    data: z.array(changeSchema),
    next: z.string().meta({ description: 'The cursor to read on from, also when data is empty.' }),
  })
  .meta({
    id: 'ChangePage',
    example: {
      data: [
        {
          cursor: 'YzE6b3JnXzAxOjQy',
          resource: 'contacts',
          id: 'con_01HZX3Q9J6Y2W8R5T4K7M1N0PB',
          operation: 'updated',
          object: { id: 'con_01HZX3Q9J6Y2W8R5T4K7M1N0PB', name: 'Ada Lovelace', email: 'ada@example.com' },
          previousAttributes: { email: 'ada@old.example.com' },
          actor: { type: 'api_key', id: 'key_01HZX3Q9J6Y2W8R5T4K7M1N0PC' },
          at: '2026-11-28T08:30:00.000Z',
        },
      ],
      next: 'YzE6b3JnXzAxOjQy',
    },
  });

export const changeRoutes = [
  route({
    method: 'get',
    path: '/changes',
    tag: 'Changes',
    summary: 'Read the change feed',
    description:
      'Every committed change of the records the credential can list, in commit order, exactly once when `next` is followed ' +
      '(even while many writers commit). Cursors last CHANGE_RETENTION_DAYS (default 90); an older one is 410 CURSOR_EXPIRED: ' +
      're-export, load the file and follow the feed from the export’s `changesCursor` (a change the file holds may come ' +
      'again). A cursor read with `resources` is bound to them: use it with those resources or some of them, else 400. ' +
      '`wait` long-polls.',
    operation: `query ($after: String, $limit: Int, $resources: [String!], $wait: Int) {
      changes(after: $after, limit: $limit, resources: $resources, wait: $wait) { data { ${CHANGE_FIELDS} } next } }`,
    query: changeQuerySchema,
    variables: ({ query }) => ({ ...query, resources: query.resources?.split(',') }),
    status: 200,
    gone:
      'CURSOR_EXPIRED: the cursor is older than CHANGE_RETENTION_DAYS. Re-export (POST /v1/exports), load the file ' +
      'and follow the feed from the export’s changesCursor',
    response: changePageSchema,
  }),
];
