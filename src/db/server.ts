// Where the service's database lives: DATABASE_URL when set, otherwise the
// embedded PostgreSQL under DATA_DIR (started here, stopped by the caller).
import path from 'node:path';
import type { Config } from '../config.js';
import { ensureDatabase, withDatabaseName } from './database-url.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

export const EMBEDDED_DATABASE_NAME = 'platform';

/** The embedded cluster of a DATA_DIR. */
export function embeddedClusterDir(dataDir: string): string {
  return path.join(dataDir, 'postgres');
}

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedPostgresPort'>,
  onLog?: (line: string) => void,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: false, close: async () => {} };
  }
  const server = await startEmbeddedPostgres({
    dir: embeddedClusterDir(config.dataDir),
    port: config.embeddedPostgresPort,
    onLog,
  });
  try {
    await ensureDatabase(server.serverUrl, EMBEDDED_DATABASE_NAME);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: withDatabaseName(server.serverUrl, EMBEDDED_DATABASE_NAME),
    embedded: true,
    close: () => server.stop(),
  };
}
