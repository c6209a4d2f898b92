// A fault the caller cannot fix: 500 INTERNAL_ERROR in the envelope, with no
// stack trace, SQL or table names in what the client sees.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';

const server = useServer();
let key: string;

beforeAll(async () => {
  key = await (await server.org()).key(['crm:read', 'crm:write']);
});

const LEAKS = /relation|does not exist|public\.|select |insert |prisma|postgres|at \w+ \(|\.ts:\d+/i;

describe('when the database fails under a request', () => {
  it('answers 500 INTERNAL_ERROR without internals, over REST and GraphQL, and recovers', async () => {
    await server.prisma.$executeRawUnsafe('alter table "Contact" rename to "ContactGone"');
    try {
      for (const [method, body] of [
        ['GET', undefined],
        ['POST', { email: 'fault@example.com' }],
      ] as const) {
        const res = await server.rest(method, '/v1/crm/contacts', { key, body });
        expect(res.status, method).toBe(500);
        expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An internal error occurred' } });
        expect(res.text).not.toMatch(LEAKS);
      }
      const graphql = await server.gql('{ contacts { data { id } } }', undefined, { key });
      expect(graphql.body.errors[0]).toMatchObject({
        message: 'An internal error occurred',
        extensions: { code: 'INTERNAL_ERROR' },
      });
      expect(JSON.stringify(graphql.body.errors)).not.toMatch(LEAKS);
    } finally {
      await server.prisma.$executeRawUnsafe('alter table "ContactGone" rename to "Contact"');
    }
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);
  });
});
