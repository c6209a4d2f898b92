// A real service on a loopback port over its own database, with helpers to
// create organizations and API keys the way an operator would.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { operatorPrincipal } from '../../src/auth/principal.js';
import type { Scope } from '../../src/auth/scopes.js';
import { parseConfig, type Config } from '../../src/config.js';
import type { PrismaClient } from '../../src/db/prisma.js';
import type { Services } from '../../src/graphql/modules.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { configureHttpServer } from '../../src/http/server-options.js';
import { databaseUrls } from '../../src/db/server.js';
import { createPlatform } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestServer {
  url: string;
  databaseUrl: string;
  prisma: PrismaClient;
  /** The server's own services, as the CLI and the bootstrap use them. */
  services: Services;
  config: Config;
  /** A new organization with its admin user; returns its id. */
  createOrganization(name?: string): Promise<string>;
  /** A new API key for the organization; returns the Bearer key. */
  createKey(organizationId: string, scopes: Scope[], options?: { expiresAt?: Date }): Promise<string>;
  /** Revokes a key by id as an operator would (the NOTIFY included). */
  revokeKey(id: string): Promise<{ revokedAt: string | null }>;
  /** fetch against the server with a Bearer key and JSON body. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

let organizationCounter = 0;

export async function startTestServer(
  env: Record<string, string> = {},
  database?: TestDatabase,
  /** Where the server logs (by default nowhere: LOG_LEVEL silent). */
  logger?: Logger,
): Promise<TestServer & { database: TestDatabase }> {
  const db = database ?? (await createTestDatabase());
  // Passwords at the lowest allowed cost (the one before OWASP's): the suite hashes hundreds,
  // at 0.04 s each instead of 0.4 s. Tests of the cost itself pass PASSWORD_SCRYPT_N.
  const settings = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    DATABASE_URL: db.url,
    PASSWORD_SCRYPT_N: '16384',
    ...env,
  };
  // Listening first (configured before, as Node reads its timeout checks at listen), so
  // that PUBLIC_URL (links, the OAuth issuer) can be the server's real address.
  const server = http.createServer();
  configureHttpServer(server, parseConfig(settings));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = parseConfig({ PUBLIC_URL: url, ...settings });
  // DATABASE_URL and DATABASE_DIRECT_URL as the env gives them (a test may put PgBouncer in front).
  const urls = databaseUrls(config.databaseUrl ?? db.url, config.databaseDirectUrl);
  const platform = await createPlatform(config, urls, logger ?? createLogger(config)).catch((error: unknown) => {
    server.close();
    throw error;
  });
  server.on('request', platform.listener);

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };

  return {
    url,
    databaseUrl: db.url,
    database: db,
    prisma: platform.prisma,
    services: platform.services,
    config,
    request,
    async createOrganization(name = `Org ${++organizationCounter}`) {
      const created = await platform.services.organizations.create({
        name,
        adminEmail: `admin-${process.pid}-${Date.now()}-${++organizationCounter}@example.test`,
        adminPassword: 'correct horse battery',
      });
      return created.organization.id;
    },
    async createKey(organizationId, scopes, options = {}) {
      // An expiry in the past is refused by the service: write it afterwards, as time would.
      const expired = options.expiresAt && options.expiresAt.getTime() <= Date.now();
      const key = await platform.services.apiKeys.create(operatorPrincipal(organizationId), {
        name: 'test key',
        scopes,
        ...(options.expiresAt && !expired && { expiresAt: options.expiresAt.toISOString() }),
      });
      if (expired)
        await platform.prisma.apiKey.update({ where: { id: key.id }, data: { expiresAt: options.expiresAt } });
      return key.key;
    },
    async revokeKey(id) {
      const organizationId = await platform.services.apiKeys.organizationOf(id);
      if (!organizationId) throw new Error(`no API key ${id}`);
      return platform.services.apiKeys.revoke(operatorPrincipal(organizationId), id);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await platform.close();
      if (!database) await db.drop();
    },
  };
}
