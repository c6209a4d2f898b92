// A real PgBouncer (Debian's package) in transaction mode in front of the tests'
// PostgreSQL: its own process, config in a temporary directory, a free loopback
// port, clients trusted, every database name passed through to the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withDatabaseName } from '../../src/db/database-url.js';
import { freePort } from './free-port.js';

/** The binary: PGBOUNCER_PATH, else where Debian and others put it; undefined when there is none. */
export const PGBOUNCER = [process.env.PGBOUNCER_PATH, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find(
  (candidate): candidate is string => !!candidate && existsSync(candidate),
);

export interface PgBouncer {
  /** The URL of `databaseUrl`'s database through PgBouncer. */
  urlOf(databaseUrl: string): string;
  /** What PgBouncer wrote (its log). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in front of the server of `serverUrl`. A small server pool
 * (`serverPoolSize` per database and user) makes the API's connections share
 * server connections, as they do in production.
 */
export async function startPgBouncer(serverUrl: string, serverPoolSize = 3): Promise<PgBouncer> {
  if (!PGBOUNCER) throw new Error('no pgbouncer binary (apt-get install pgbouncer, or set PGBOUNCER_PATH)');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const dir = await mkdtemp(path.join(tmpdir(), 'bp-test-pgbouncer-'));
  // As root PgBouncer drops to the postgres user, which must read its directory.
  await chmod(dir, 0o755);
  const port = await freePort();
  const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || 5432}`,
    `user=${user}`,
    ...(password ? [`password=${quote(password)}`] : []),
  ].join(' ');
  await writeFile(path.join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  await writeFile(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = ${target}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverPoolSize}`,
      'max_client_conn = 500',
      // PgBouncer's defaults otherwise: no ignore_startup_parameters, as a managed service has.
      ...(process.getuid?.() === 0 ? ['user = postgres'] : []),
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  let log = '';
  const child: ChildProcess = spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urlOf = (databaseUrl: string) => {
    const through = new URL(databaseUrl);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    through.password = '';
    return through.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  // Ready once it answers a query (on the postgres database, which always exists).
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new pg.Client({ connectionString: urlOf(withDatabaseName(serverUrl, 'postgres')) });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not start (${String(error)}):\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { urlOf, output: () => log, stop };
}
