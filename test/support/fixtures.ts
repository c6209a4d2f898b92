// What a test file needs of a running service, set up in one line: `useServer()`
// starts a test server for the file (or the describe block it is called in) and
// closes it afterwards; the handle it returns creates organizations and keys and
// speaks REST and GraphQL to the server.
//
// Organizations and keys go through the TestServer's own helpers only, so that
// replacing how those are made changes server.ts and nothing here.
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Scope } from '../../src/auth/scopes.js';
import type { Config } from '../../src/config.js';
import { withDatabaseName } from '../../src/db/database-url.js';
import type { PrismaClient } from '../../src/db/prisma.js';
import type { Services } from '../../src/graphql/modules.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { startTestServer, type RequestOptions, type TestResponse, type TestServer } from './server.js';

export type { TestResponse } from './server.js';

export interface TestOrg {
  id: string;
  /** A new API key of this organization; returns the Bearer key. */
  key(scopes: Scope[], options?: { expiresAt?: Date }): Promise<string>;
}

export interface GraphQLError {
  message: string;
  extensions?: { code?: string; field?: string; [name: string]: unknown };
}

export interface GraphQLResponse extends TestResponse {
  /** body.data: as loosely typed as the body it comes from. */
  data: TestResponse['body'];
  errors: GraphQLError[] | undefined;
}

export type GraphQLOptions = Omit<RequestOptions, 'body'>;

export interface ServerFixture {
  readonly url: string;
  readonly databaseUrl: string;
  readonly prisma: PrismaClient;
  readonly config: Config;
  /** The server's own services (as the CLI uses them). */
  readonly services: Services;
  /** Revokes a key by id as an operator would (the NOTIFY to every process included). */
  revokeKey(id: string): Promise<{ revokedAt: string | null }>;
  /** A new organization (with its admin user). */
  org(name?: string): Promise<TestOrg>;
  /** A request with an optional Bearer key and JSON body. */
  rest(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** POST /graphql with the query and its variables. */
  gql(query: string, variables?: Record<string, unknown>, options?: GraphQLOptions): Promise<GraphQLResponse>;
}

/** A test server for the calling file or describe block. */
export function useServer(env: Record<string, string> = {}): ServerFixture {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env);
  });
  afterAll(async () => {
    await server?.close();
  });
  return fixture(() => server);
}

/** Two test servers over one database, as two server processes would be. */
export function useServerPair(env: Record<string, string> = {}): [ServerFixture, ServerFixture] {
  let database: TestDatabase | undefined;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    servers.push(await startTestServer(env, database));
    servers.push(await startTestServer(env, database));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    if (database) await dropWhenIdle(database);
  });
  return [fixture(() => servers[0]), fixture(() => servers[1])];
}

/** A handle that reaches the server only when used, i.e. in hooks and tests after it has started. */
function fixture(current: () => TestServer | undefined): ServerFixture {
  const server = () => {
    const started = current();
    if (!started) throw new Error('the test server starts in beforeAll: use it in hooks and tests');
    return started;
  };
  return {
    get url() {
      return server().url;
    },
    get databaseUrl() {
      return server().databaseUrl;
    },
    get prisma() {
      return server().prisma;
    },
    get config() {
      return server().config;
    },
    get services() {
      return server().services;
    },
    revokeKey: (id) => server().revokeKey(id),
    async org(name) {
      const s = server();
      const id = await s.createOrganization(name);
      return { id, key: (scopes, options) => s.createKey(id, scopes, options) };
    },
    rest: (method, path, options) => server().request(method, path, options),
    async gql(query, variables, options = {}) {
      const res = await server().request('POST', '/graphql', { ...options, body: { query, variables } });
      return { ...res, data: res.body?.data, errors: res.body?.errors };
    },
  };
}

/**
 * Drops a database shared by several test servers once their connections are
 * really gone (closing a pool resolves before its sockets have closed, and a
 * forced drop would then kill them mid-goodbye).
 */
async function dropWhenIdle(database: TestDatabase) {
  const name = decodeURIComponent(new URL(database.url).pathname.slice(1));
  const client = new pg.Client({ connectionString: withDatabaseName(inject('postgresServerUrl'), 'postgres') });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
  await database.drop();
}
