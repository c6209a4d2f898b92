// Where the service's database lives: DATABASE_URL when set, otherwise the
// embedded PostgreSQL under DATA_DIR (started here, stopped by the caller).
// One process at a time owns DATA_DIR's PostgreSQL (data-dir-lock.ts); one that
// a killed owner left running is stopped first, keeping the data.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { lockDataDir, type OwnerKind } from './data-dir-lock.js';
import { ensureDatabase, withDatabaseName } from './database-url.js';
import { embeddedDataDir, startEmbeddedPostgres, stopLeftoverPostgres } from './embedded-postgres.js';

export const EMBEDDED_DATABASE_NAME = 'platform';

/** The embedded PostgreSQL's directory of a DATA_DIR (its cluster, password and owner file). */
export function embeddedClusterDir(dataDir: string): string {
  return path.join(dataDir, 'postgres');
}

/** Whether DATA_DIR already holds an embedded PostgreSQL cluster (initdb ran there). */
export function embeddedClusterExists(dataDir: string): boolean {
  return existsSync(path.join(embeddedDataDir(embeddedClusterDir(dataDir)), 'PG_VERSION'));
}

/** Where the service connects: DATABASE_URL (maybe PgBouncer's) and the direct connection beside it. */
export interface DatabaseUrls {
  /** The API's queries: a pool of short transactions, maybe through a transaction pooler. */
  url: string;
  /** What needs a session of its own: migrations, LISTEN, the worker, advisory locks. */
  directUrl: string;
  /** url leads to a transaction pooler: no named statements, no session state. */
  pooled: boolean;
}

/** The urls of a database; a directUrl that differs from url makes url a pooler's. */
export function databaseUrls(url: string, directUrl: string = url): DatabaseUrls {
  return { url, directUrl, pooled: directUrl !== url };
}

export interface DatabaseHandle extends DatabaseUrls {
  embedded: boolean;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Who will own DATA_DIR's PostgreSQL; named when another process is refused. */
  owner?: OwnerKind;
  /** PostgreSQL in a process group of its own (the service: it stops PostgreSQL last). */
  detached?: boolean;
  /** Things an operator should know (a leftover PostgreSQL was stopped). */
  notice?: (message: string, fields: Record<string, unknown>) => void;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'dataDir' | 'embeddedPostgresPort'>,
  onLog?: (line: string) => void,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    return { ...databaseUrls(config.databaseUrl, config.databaseDirectUrl), embedded: false, close: async () => {} };
  }
  const dir = embeddedClusterDir(config.dataDir);
  await mkdir(dir, { recursive: true });
  const lock = await lockDataDir(dir, config.dataDir, options.owner ?? 'service');
  try {
    await stopLeftoverPostgres(dir, options.notice);
    const server = await startEmbeddedPostgres({
      dir,
      port: config.embeddedPostgresPort,
      onLog,
      detached: options.detached,
    });
    try {
      await ensureDatabase(server.serverUrl, EMBEDDED_DATABASE_NAME);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return {
      ...databaseUrls(withDatabaseName(server.serverUrl, EMBEDDED_DATABASE_NAME)),
      embedded: true,
      close: async () => {
        await server.stop();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
