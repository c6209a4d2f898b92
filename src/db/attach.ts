// The database for a short-lived process (CLI, scripts): DATABASE_URL when set;
// otherwise the embedded PostgreSQL under DATA_DIR, used as it is when a server
// (npm start) already runs it, or started here and stopped by close().
import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import type { Config } from '../config.js';
import { ensureDatabase, withDatabaseName } from './database-url.js';
import { DataDirInUseError, liveOwner } from './data-dir-lock.js';
import { embeddedPasswordFile, embeddedServerUrl } from './embedded-postgres.js';
import { newClient, parseMultiHostUrl } from './multi-host.js';
import {
  EMBEDDED_DATABASE_NAME,
  databaseUrls,
  embeddedClusterDir,
  openDatabase,
  type DatabaseHandle,
  type DatabaseUrls,
} from './server.js';

export interface AttachedDatabase extends DatabaseHandle {
  /** url: DATABASE_URL; attached: an embedded PostgreSQL already running; started: started by this process. */
  origin: 'url' | 'attached' | 'started';
}

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'dataDir' | 'embeddedPostgresPort'>;

const CONNECT_TIMEOUT_MS = 10_000;
/** How long to wait for an embedded PostgreSQL that is starting up or shutting down. */
const TRANSITION_WAIT_MS = 15_000;

export class DatabaseUnavailableError extends Error {}

export async function attachOrStartDatabase(
  config: DatabaseConfig,
  onLog?: (line: string) => void,
): Promise<AttachedDatabase> {
  if (config.databaseUrl) {
    const handle = await openDatabase(config);
    await checkConnections(handle);
    return { ...handle, origin: 'url' };
  }
  const running = await attachEmbeddedPostgres(config);
  if (running) return running;
  try {
    return { ...(await openDatabase(config, onLog, { owner: 'cli' })), origin: 'started' };
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    // Another process owns it and is starting (or stopping) its PostgreSQL: use it once it answers.
    const deadline = Date.now() + TRANSITION_WAIT_MS;
    while (Date.now() < deadline) {
      const late = await attachEmbeddedPostgres(config).catch(() => undefined);
      if (late) return late;
      if (!(await liveOwner(embeddedClusterDir(config.dataDir)))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw error;
  }
}

/**
 * Connects to the embedded PostgreSQL of DATA_DIR if one is listening on
 * EMBEDDED_PG_PORT (the layout of startEmbeddedPostgres);
 * undefined when none is. Something else on that port is an error.
 */
export async function attachEmbeddedPostgres(config: DatabaseConfig): Promise<AttachedDatabase | undefined> {
  const passwordFile = embeddedPasswordFile(embeddedClusterDir(config.dataDir));
  let password: string;
  try {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } catch (error) {
    // Never initialised: no server of this DATA_DIR can be running.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const port = config.embeddedPostgresPort;
  const serverUrl = embeddedServerUrl(password, port);
  const deadline = Date.now() + TRANSITION_WAIT_MS;
  for (;;) {
    const problem = await probe(serverUrl);
    if (problem === undefined) break;
    if (problem.code === 'ECONNREFUSED') return undefined;
    // 57P03: the server is starting up or shutting down; wait for it to settle.
    if (problem.code === '57P03' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    throw new DatabaseUnavailableError(
      `something listens on 127.0.0.1:${port} but it is not usable as the embedded PostgreSQL of ` +
        `${config.dataDir} (${problem.message}); stop it, or set EMBEDDED_PG_PORT or DATABASE_URL`,
    );
  }
  await ensureDatabase(serverUrl, EMBEDDED_DATABASE_NAME);
  return {
    ...databaseUrls(withDatabaseName(serverUrl, EMBEDDED_DATABASE_NAME)),
    embedded: true,
    origin: 'attached',
    close: async () => {},
  };
}

/**
 * DATABASE_URL and, when it is another, DATABASE_DIRECT_URL answer. A DATABASE_URL
 * taken as direct is opened as the pool opens it (statement_timeout in the startup
 * packet), so that PgBouncer without DATABASE_DIRECT_URL is named at start.
 */
export async function checkConnections(urls: DatabaseUrls): Promise<void> {
  if (urls.pooled) {
    await checkConnection(urls.url, 'DATABASE_URL');
    await checkConnection(urls.directUrl, 'DATABASE_DIRECT_URL');
    return;
  }
  const problem = await probe(urls.url, { statement_timeout: 60_000 });
  if (!problem) return;
  if (/unsupported startup parameter/.test(problem.message)) {
    throw new DatabaseUnavailableError(
      `DATABASE_URL leads to a connection pooler such as PgBouncer (${problem.message}): ` +
        'set DATABASE_DIRECT_URL to PostgreSQL itself (README, PgBouncer)',
    );
  }
  // Any other failure, worded as for every connection.
  await checkConnection(urls.url, 'DATABASE_URL');
}

/** Fails with a message naming the server (never its password) when it cannot be reached. */
export async function checkConnection(url: string, what: string): Promise<void> {
  const problem = await probe(url);
  if (problem === undefined) return;
  let where = 'the database';
  const group = parseMultiHostUrl(url);
  if (group) where = `any of ${group.describe()}`;
  else
    try {
      const parsed = new URL(url);
      where = `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
    } catch {
      // keep the generic wording
    }
  throw new DatabaseUnavailableError(`cannot connect to PostgreSQL at ${where} (${what}): ${problem.message}`);
}

async function probe(
  url: string,
  startup: pg.ClientConfig = {},
): Promise<{ code?: string; message: string } | undefined> {
  // A failover group's URL: the primary's connection (multi-host.ts).
  const client = newClient(url, { ...startup, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    const err = error as { code?: string; message?: string; errors?: { code?: string }[] };
    // Several addresses refused (AggregateError): report the common code.
    const code = err.code ?? err.errors?.[0]?.code;
    return { code, message: err.message || code || String(error) };
  } finally {
    await client.end().catch(() => {});
  }
}
