// A fault the caller cannot fix: 500 INTERNAL_ERROR in the envelope, with no
// stack trace, SQL or table names in what the client sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey(await server.createOrganization(), ['crm:read', 'crm:write']);
});
afterAll(() => server.close());

const LEAKS = /relation|does not exist|public\.|select |insert |prisma|postgres|at \w+ \(|\.ts:\d+/i;

describe('when the database fails under a request', () => {
  it('answers 500 INTERNAL_ERROR without internals, over REST and GraphQL, and recovers', async () => {
    await server.prisma.$executeRawUnsafe('alter table "Contact" rename to "ContactGone"');
    try {
      for (const [method, body] of [
        ['GET', undefined],
        ['POST', { email: 'fault@example.com' }],
      ] as const) {
        const res = await server.request(method, '/v1/crm/contacts', { key, body });
        expect(res.status, method).toBe(500);
        expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'An internal error occurred' } });
        expect(res.text).not.toMatch(LEAKS);
      }
      const graphql = await server.request('POST', '/graphql', {
        key,
        body: { query: '{ contacts { data { id } } }' },
      });
      expect(graphql.body.errors[0]).toMatchObject({
        message: 'An internal error occurred',
        extensions: { code: 'INTERNAL_ERROR' },
      });
      expect(JSON.stringify(graphql.body.errors)).not.toMatch(LEAKS);
    } finally {
      await server.prisma.$executeRawUnsafe('alter table "ContactGone" rename to "Contact"');
    }
    expect((await server.request('GET', '/v1/crm/contacts', { key })).status).toBe(200);
  });
});
