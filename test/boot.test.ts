// The first run as a new user does it: `node --import tsx src/main.ts` as a real
// child process, with a database of its own or with none at all (the embedded
// PostgreSQL under DATA_DIR), the demo banner, its curl line, restarts, SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { freePort } from './support/free-port.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BANNER = 'Created a demo organization';
const SLOW = 120_000;

/** True when nothing listens on 127.0.0.1:port (we can bind it ourselves). */
async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Service {
  child: ChildProcess;
  port: number;
  url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** Resolves when the service logs that it listens; rejects if it exits first. */
  ready: Promise<void>;
  /** SIGTERM, then how it ended and how long that took. */
  stop(): Promise<Exit & { ms: number }>;
}

/** The start-up log's line when local conveniences are on, and why (src/local-conveniences.ts). */
function relaxedBecause(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.includes('local conveniences on')) continue;
    const entry = JSON.parse(line) as { level: number; reason: string };
    expect(entry.level).toBe(40); // warn
    return entry.reason;
  }
  return undefined;
}

const running = new Set<Service>();
/** Clusters the services started (DATA_DIR/postgres/cluster), to stop leftovers. */
const clusters = new Set<string>();
const cleanups: (() => Promise<void>)[] = [];

/** The service as a user starts it: no inherited DATABASE_URL, REDIS_URL, NODE_ENV or PUBLIC_URL. */
/** Production refuses to start without a key for webhook secrets. */
const PRODUCTION_WEBHOOK_KEY = Buffer.alloc(32, 3).toString('base64');

function startService(env: Record<string, string>, port: number): Service {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? ROOT,
      ...(process.env.TMPDIR && { TMPDIR: process.env.TMPDIR }),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const service: Service = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    exited,
    ready: new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (/"msg":"listening"/.test(out)) {
          clearInterval(timer);
          resolve();
        }
      }, 50);
      void exited.then((exit) => {
        clearInterval(timer);
        reject(new Error(`service exited early (${JSON.stringify(exit)}):\n${out}\n${err}`));
      });
    }),
    async stop() {
      const started = Date.now();
      child.kill('SIGTERM');
      const exit = await exited;
      return { ...exit, ms: Date.now() - started };
    },
  };
  service.ready.catch(() => {});
  running.add(service);
  void exited.then(() => running.delete(service));
  return service;
}

afterAll(async () => {
  // Whatever happened in the tests: no service and no PostgreSQL left behind.
  for (const service of running) service.child.kill('SIGTERM');
  await Promise.race([Promise.all([...running].map((s) => s.exited)), sleep(15_000)]);
  for (const service of running) service.child.kill('SIGKILL');
  for (const cluster of clusters) {
    const pidFile = path.join(cluster, 'postmaster.pid');
    if (!existsSync(pidFile)) continue;
    const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // already gone
      }
    }
  }
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}, 60_000);

interface Banner {
  key: string;
  curlKey: string;
  curlUrl: string;
}

function parseBanner(stdout: string): Banner {
  expect(stdout).toContain(BANNER);
  const key = /API key:\s+(bpk_[A-Za-z0-9_-]+)/.exec(stdout)?.[1];
  expect(key, 'API key line').toBeDefined();
  const curl = /curl -H "Authorization: Bearer ([^"]+)" (\S+)/.exec(stdout);
  expect(curl, 'curl line').not.toBeNull();
  return { key: key!, curlKey: curl![1]!, curlUrl: curl![2]! };
}

/** Runs the banner's curl line the way curl would. */
async function runCurlLine(banner: Banner) {
  const res = await fetch(banner.curlUrl, { headers: { Authorization: `Bearer ${banner.curlKey}` } });
  return { status: res.status, body: (await res.json()) as { data: unknown[]; pagination: Record<string, number> } };
}

async function countOrganizations(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from "Organization"');
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

async function newDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database;
}

describe('first run with DATABASE_URL (development)', () => {
  it(
    'prints the demo banner once, its curl line works, health answers, restarts keep the key, SIGTERM exits 0',
    async () => {
      const database = await newDatabase();
      const port = await freePort();
      const env = { NODE_ENV: 'development', DATABASE_URL: database.url };

      const first = startService(env, port);
      await first.ready;
      expect(relaxedBecause(first.stdout())).toBe('NODE_ENV=development');
      const banner = parseBanner(first.stdout());
      expect(banner.curlKey).toBe(banner.key);
      expect(banner.curlUrl).toBe(`http://127.0.0.1:${port}/v1/crm/contacts`);

      const curl = await runCurlLine(banner);
      expect(curl.status).toBe(200);
      expect(curl.body).toEqual({
        data: expect.any(Array),
        pagination: {
          page: 1,
          limit: 50,
          total: expect.any(Number),
          totalExact: true,
          pages: expect.any(Number),
          next: null,
        },
      });

      const health = await fetch(`${first.url}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${first.url}/readyz`);
      expect(ready.status).toBe(200);

      // The OpenAPI document names the address the service really listens on.
      const openapi = (await (await fetch(`${first.url}/v1/openapi.json`)).json()) as { servers: { url: string }[] };
      expect(openapi.servers[0]!.url).toBe(`http://127.0.0.1:${port}/v1`);

      // The banner's key is an admin key: it can write, too.
      const created = await fetch(`${first.url}/v1/crm/contacts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${banner.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'first-run@example.com' }),
      });
      expect(created.status).toBe(201);
      expect(await countOrganizations(database.url)).toBe(1);

      const stopped = await first.stop();
      expect.soft(stopped, first.stderr()).toMatchObject({ code: 0, signal: null });
      expect(stopped.ms).toBeLessThan(5_000);

      // Second start on the same database: no new demo organization, the old key works.
      const second = startService(env, port);
      await second.ready;
      expect(second.stdout()).not.toContain(BANNER);
      expect(second.stdout()).not.toMatch(/bpk_/);
      expect(await countOrganizations(database.url)).toBe(1);
      const again = await runCurlLine(banner);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual([expect.objectContaining({ email: 'first-run@example.com' })]);

      const stoppedAgain = await second.stop();
      expect.soft(stoppedAgain, second.stderr()).toMatchObject({ code: 0, signal: null });
      expect(stoppedAgain.ms).toBeLessThan(5_000);
      expect(await portIsFree(port)).toBe(true);
    },
    SLOW,
  );

  it(
    'answers SIGINT (Ctrl-C) with a clean exit as well',
    async () => {
      const database = await newDatabase();
      const service = startService({ NODE_ENV: 'development', DATABASE_URL: database.url }, await freePort());
      await service.ready;
      service.child.kill('SIGINT');
      const exit = await service.exited;
      expect.soft(exit, service.stderr()).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );
});

describe('first run with DATABASE_URL and no NODE_ENV (a deployment that forgot it)', () => {
  it(
    'keeps the strict policies: no demo organization, no credentials printed, no relaxed policy logged',
    async () => {
      const database = await newDatabase();
      const service = startService(
        { DATABASE_URL: database.url, WEBHOOK_SECRET_KEY: PRODUCTION_WEBHOOK_KEY },
        await freePort(),
      );
      await service.ready;
      expect(relaxedBecause(service.stdout())).toBeUndefined();
      expect(service.stdout()).not.toContain(BANNER);
      expect(service.stdout()).not.toMatch(/bpk_|bps_|admin@demo/);
      expect(await countOrganizations(database.url)).toBe(0);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const stopped = await service.stop();
      expect.soft(stopped, service.stderr()).toMatchObject({ code: 0, signal: null });
    },
    SLOW,
  );
});

describe('a DATABASE_URL without WEBHOOK_SECRET_KEY and no NODE_ENV', () => {
  it(
    'refuses to start, naming WEBHOOK_SECRET_KEY: processes on two hosts would seal with two keys',
    async () => {
      const database = await newDatabase();
      const service = startService({ DATABASE_URL: database.url }, await freePort());
      const exit = await Promise.race([service.exited, sleep(60_000).then(() => 'timeout' as const)]);
      expect(exit).not.toBe('timeout');
      expect((exit as Exit).code).not.toBe(0);
      const output = service.stdout() + service.stderr();
      expect(output).toMatch(/WEBHOOK_SECRET_KEY is required with DATABASE_URL/);
      expect(output).toContain('openssl rand -base64 32');
      expect(output).not.toMatch(/\n\s+at /); // no stack trace
      expect(await countOrganizations(database.url)).toBe(0);
    },
    SLOW,
  );
});

describe('a PORT already in use', () => {
  it(
    'stops the service at once with a message that names PORT, like EMBEDDED_PG_PORT does',
    async () => {
      const database = await newDatabase();
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
      const port = (blocker.address() as net.AddressInfo).port;

      const service = startService(
        { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: PRODUCTION_WEBHOOK_KEY, DATABASE_URL: database.url },
        port,
      );
      const exit = await Promise.race([service.exited, sleep(60_000).then(() => 'timeout' as const)]);
      expect(exit).not.toBe('timeout');
      expect((exit as Exit).code).not.toBe(0);
      const output = service.stdout() + service.stderr();
      expect(output).toContain(String(port));
      expect(output).toMatch(/\bPORT\b/);
      expect(output).not.toContain("Unhandled 'error' event");
    },
    SLOW,
  );
});

describe('first run in production', () => {
  it(
    'creates no demo organization and prints no key',
    async () => {
      const database = await newDatabase();
      const service = startService(
        { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: PRODUCTION_WEBHOOK_KEY, DATABASE_URL: database.url },
        await freePort(),
      );
      await service.ready;
      expect(service.stdout()).not.toContain(BANNER);
      expect(service.stdout()).not.toMatch(/bpk_|curl /);
      expect(await countOrganizations(database.url)).toBe(0);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const unauthenticated = await fetch(`${service.url}/v1/crm/contacts`);
      expect(unauthenticated.status).toBe(401);
      const stopped = await service.stop();
      expect.soft(stopped, service.stderr()).toMatchObject({ code: 0, signal: null });
    },
    SLOW,
  );
});

describe('first run on a fresh machine (no DATABASE_URL)', () => {
  it(
    'starts an embedded PostgreSQL under DATA_DIR, stops it on SIGTERM, and keeps the data for the next start',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'bp-boot-'));
      // PostgreSQL refuses to run as root; as root the service runs it as `postgres`,
      // which must be able to reach the directory.
      await chmod(dataDir, 0o755);
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      clusters.add(path.join(dataDir, 'postgres', 'cluster'));
      const pgPort = await freePort();
      const port = await freePort();
      // As a user runs `npm start`: no NODE_ENV, HOST 127.0.0.1, the embedded PostgreSQL.
      const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) };

      const first = startService(env, port);
      await first.ready;
      // The one case that is surely local: the demo banner and local receivers are on, and the log says why.
      expect(relaxedBecause(first.stdout())).toBe(
        'NODE_ENV is unset, the database is the embedded PostgreSQL and HOST 127.0.0.1 is loopback',
      );
      expect(existsSync(path.join(dataDir, 'postgres', 'cluster', 'PG_VERSION'))).toBe(true);
      expect(await portIsFree(pgPort)).toBe(false);
      const banner = parseBanner(first.stdout());
      expect(banner.curlUrl).toBe(`http://127.0.0.1:${port}/v1/crm/contacts`);
      const curl = await runCurlLine(banner);
      expect(curl.status).toBe(200);
      expect(curl.body).toMatchObject({ data: [], pagination: { page: 1, total: 0 } });
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

      const created = await fetch(`${first.url}/v1/crm/contacts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${banner.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'kept@example.com', company: 'Persistence Ltd' }),
      });
      expect(created.status).toBe(201);
      const contact = (await created.json()) as { id: string };

      const stopped = await first.stop();
      expect.soft(stopped, first.stdout() + first.stderr()).toMatchObject({ code: 0, signal: null });
      expect(stopped.ms).toBeLessThan(10_000);
      // PostgreSQL went with it: its port is free and it left no postmaster.pid behind.
      expect(await portIsFree(pgPort)).toBe(true);
      expect(existsSync(path.join(dataDir, 'postgres', 'cluster', 'postmaster.pid'))).toBe(false);
      // Nor its claim on DATA_DIR: the next start owns it.
      expect(existsSync(path.join(dataDir, 'postgres', 'owner.json'))).toBe(false);

      const second = startService(env, port);
      await second.ready;
      expect(second.stdout()).not.toContain(BANNER);
      const res = await fetch(`${second.url}/v1/crm/contacts/${contact.id}`, {
        headers: { Authorization: `Bearer ${banner.key}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: contact.id, email: 'kept@example.com', company: 'Persistence Ltd' });

      const stoppedAgain = await second.stop();
      expect.soft(stoppedAgain, second.stdout() + second.stderr()).toMatchObject({ code: 0, signal: null });
      expect(await portIsFree(pgPort)).toBe(true);
    },
    SLOW,
  );

  it(
    'names the taken port and exits non-zero when EMBEDDED_PG_PORT is in use',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'bp-boot-'));
      await chmod(dataDir, 0o755);
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      clusters.add(path.join(dataDir, 'postgres', 'cluster'));
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
      const pgPort = (blocker.address() as net.AddressInfo).port;

      const service = startService(
        { NODE_ENV: 'development', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) },
        await freePort(),
      );
      const exit = await Promise.race([service.exited, sleep(90_000).then(() => 'timeout' as const)]);
      expect(exit).not.toBe('timeout');
      expect((exit as Exit).code).not.toBe(0);
      // One line that names the port and the setting; no stack trace.
      expect(service.stderr().trim().split('\n')).toEqual([
        `the embedded PostgreSQL cannot listen on 127.0.0.1:${pgPort}: the port is in use by another program (stop it, or set EMBEDDED_PG_PORT)`,
      ]);
      expect(service.stdout()).not.toContain(BANNER);
    },
    SLOW,
  );
});
