// The process model of `npm start` with the embedded PostgreSQL, as an operator
// meets it: kill -9 and start again, a second start on the same DATA_DIR, SIGTERM
// and Ctrl-C with requests in flight, SIGTERM to npm itself, PostgreSQL gone first.
// Every test runs the service as a real child process over one DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.js';
import { npmScript } from './support/npm-script.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SLOW = 120_000;
/** SHUTDOWN_DRAIN_MS in src/main.ts. */
const DRAIN_DEADLINE_MS = 8_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm start`'s own command line, without the `exec` that makes the shell become node. */
function startCommand(): string[] {
  const { command, args } = npmScript('start');
  expect(command).toBe('node');
  return args;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Service {
  child: ChildProcess;
  url: string;
  output(): string;
  stderr(): string;
  exited: Promise<Exit>;
  ready: Promise<void>;
}

let dataDir: string;
let pgPort: number;
let clusterDir: string;
const children = new Set<ChildProcess>();

function environment(port: number): NodeJS.ProcessEnv {
  return {
    ...npmScript('start').env,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? ROOT,
    ...(process.env.TMPDIR && { TMPDIR: process.env.TMPDIR }),
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    // The requests these tests hold behind a row lock must outlast the shutdown deadline,
    // not end at the default 5 s statement timeout.
    DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    npm_config_update_notifier: 'false',
  };
}

function watch(child: ChildProcess, url: string): Service {
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
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
  });
  ready.catch(() => {});
  return { child, url, output: () => out + err, stderr: () => err, exited, ready };
}

/** The service as `npm start` runs it; detached: in a process group of its own, like a terminal's job. */
async function startService(options: { detached?: boolean } = {}): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, startCommand(), {
    cwd: ROOT,
    env: environment(port),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  return watch(child, `http://127.0.0.1:${port}`);
}

/** After each test: no service of it left running to hold DATA_DIR for the next one. */
async function stopAll(): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  for (let i = 0; i < 200 && children.size > 0; i++) await sleep(100);
  for (const child of children) child.kill('SIGKILL');
}

async function exitWithin(service: Service, ms: number): Promise<Exit | 'timeout'> {
  return Promise.race([service.exited, sleep(ms).then(() => 'timeout' as const)]);
}

function postmasterPid(): number | undefined {
  const file = path.join(clusterDir, 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

/** The process exists and has not exited (a zombie, exited but not yet reaped by its new parent, has). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false; // gone meanwhile
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first start printed the demo key; later starts reuse it. */
let key: string;

async function api(service: Service, method: string, url: string, body?: unknown) {
  const res = await fetch(`${service.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A superuser connection to the service's database, as an operator's psql would be. */
async function databaseClient(): Promise<pg.Client> {
  const password = (await readFile(path.join(dataDir, 'postgres', 'password'), 'utf8')).trim();
  const client = new pg.Client({
    connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/platform`,
  });
  client.on('error', () => {}); // PostgreSQL stops under it at the end of a shutdown
  await client.connect();
  return client;
}

/** Holds a row lock on the contact, so a PUT to it waits (a slow request on demand). */
async function lockContact(id: string) {
  const client = await databaseClient();
  await client.query('begin');
  await client.query('select 1 from "Contact" where id = $1 for update', [id]);
  return {
    /** Resolves once a session of the service waits for this lock; fails if `request` was answered first. */
    async waiter(request: Promise<Answer>) {
      let answered: Answer | Error | undefined;
      request.then(
        (answer) => (answered = answer),
        (error: Error) => (answered = error),
      );
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (answered) throw new Error(`answered without waiting for the lock: ${JSON.stringify(answered)}`);
        const { rows } = await client.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        if (rows[0]!.n > 0) return;
        await sleep(50);
      }
      throw new Error('no request waited for the lock');
    },
    release: () => client.query('commit').then(() => client.end()),
    end: () => client.end().catch(() => {}),
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request over its own keep-alive agent (so a test controls which connection it uses). */
function request(service: Service, agent: http.Agent, method: string, url: string, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${service.url}${url}`,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(payload && { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function connectionRefused(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** The order of the service's shutdown log lines (each message's first position). */
function positions(output: string, messages: string[]): number[] {
  return messages.map((message) => output.indexOf(`"msg":"${message}"`));
}

let contactId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'bp-process-'));
  // As root, PostgreSQL runs as `postgres`, which must be able to enter the directory.
  await chmod(dataDir, 0o755);
  clusterDir = path.join(dataDir, 'postgres', 'cluster');
  pgPort = await freePort();
});

afterEach(stopAll, 30_000);

afterAll(async () => {
  await stopAll();
  const pid = postmasterPid();
  if (pid && alive(pid)) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && alive(pid); i++) await sleep(100);
  }
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('after kill -9 of the service', () => {
  it(
    'the next start stops the PostgreSQL it left behind and comes back with the data',
    async () => {
      const first = await startService();
      await first.ready;
      key = /API key:\s+(bpk_[A-Za-z0-9_-]+)/.exec(first.output())![1]!;
      const created = await api(first, 'POST', '/v1/crm/contacts', { email: 'survivor@example.com' });
      expect(created.status).toBe(201);
      contactId = created.body.id as string;

      const leftover = postmasterPid()!;
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // What the bug was about: PostgreSQL outlives its parent.
      expect(alive(leftover)).toBe(true);

      const second = await startService();
      await second.ready;
      expect(second.output()).toContain('stopping the embedded PostgreSQL that a service which is gone left running');
      expect(second.output()).not.toMatch(/\n\s+at /); // no stack trace
      expect(alive(leftover)).toBe(false);
      expect(postmasterPid()).not.toBe(leftover);

      const contact = await api(second, 'GET', `/v1/crm/contacts/${contactId}`);
      expect(contact).toMatchObject({ status: 200, body: { id: contactId, email: 'survivor@example.com' } });
      expect((await fetch(`${second.url}/readyz`)).status).toBe(200);

      second.child.kill('SIGTERM');
      expect(await exitWithin(second, 15_000)).toEqual({ code: 0, signal: null });
      expect(await portIsFree(pgPort)).toBe(true);
      expect(existsSync(path.join(dataDir, 'postgres', 'owner.json'))).toBe(false);
    },
    SLOW,
  );
});

describe('a second start on the same DATA_DIR', () => {
  it(
    'exits non-zero with one line naming the running service, and leaves it alone',
    async () => {
      const first = await startService();
      await first.ready;
      const second = await startService();
      const exit = await exitWithin(second, 60_000);
      expect(exit).toEqual({ code: 1, signal: null });
      const lines = second.output().trim().split('\n');
      expect(lines).toEqual([
        `the data directory ${dataDir} is in use by another running service (pid ${first.child.pid}): ` +
          'stop it first, or set DATA_DIR to another directory',
      ]);
      expect(second.output()).not.toContain('EMBEDDED_PG_PORT');

      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await exitWithin(first, 15_000)).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );
});

describe('graceful shutdown', () => {
  it(
    'on SIGTERM finishes the request in flight, refuses new connections, closes keep-alive ones, then the pools and PostgreSQL, exit 0',
    async () => {
      const service = await startService();
      await service.ready;
      const lock = await lockContact(contactId);
      const idleAgent = new http.Agent({ keepAlive: true });
      const busyAgent = new http.Agent({ keepAlive: true });
      try {
        // An idle keep-alive connection, and a PUT that waits for the row lock.
        const warmup = await request(service, idleAgent, 'GET', '/healthz');
        expect(warmup.status).toBe(200);
        const idleSocket = Object.values(idleAgent.freeSockets).flat()[0]!;
        const idleClosed = new Promise<void>((resolve) => idleSocket.once('close', () => resolve()));
        const put = request(service, busyAgent, 'PUT', `/v1/crm/contacts/${contactId}`, { company: 'Drained Ltd' });
        put.catch(() => {});
        await lock.waiter(put);

        const signalled = Date.now();
        service.child.kill('SIGTERM');
        await idleClosed;
        await expect.poll(() => connectionRefused(service.url), { timeout: 5_000 }).toBe(true);
        // The PUT is still waiting: the process waits with it.
        await sleep(500);
        expect(service.child.exitCode).toBeNull();

        await lock.release();
        const answer = await put;
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ id: contactId, company: 'Drained Ltd' });
        expect(answer.headers.connection).toBe('close');

        expect(await exitWithin(service, DRAIN_DEADLINE_MS)).toEqual({ code: 0, signal: null });
        expect(Date.now() - signalled).toBeLessThan(DRAIN_DEADLINE_MS);
        const order = positions(service.output(), [
          'shutting down',
          'HTTP server closed',
          'connection pools closed',
          'embedded PostgreSQL stopped',
        ]);
        expect(order.every((at) => at >= 0)).toBe(true);
        expect([...order].sort((a, b) => a - b)).toEqual(order);
        expect(await portIsFree(pgPort)).toBe(true);
        expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
      } finally {
        idleAgent.destroy();
        busyAgent.destroy();
        await lock.end();
      }
    },
    SLOW,
  );

  it(
    'cuts off a request still running at the deadline and still stops in order, exit 0',
    async () => {
      const service = await startService();
      await service.ready;
      const lock = await lockContact(contactId);
      const agent = new http.Agent({ keepAlive: true });
      try {
        const put = request(service, agent, 'PUT', `/v1/crm/contacts/${contactId}`, { company: 'Never' });
        const outcome = put.then(
          () => 'answered',
          () => 'cut off',
        );
        await lock.waiter(put);
        const signalled = Date.now();
        service.child.kill('SIGTERM');
        expect(await exitWithin(service, DRAIN_DEADLINE_MS + 10_000)).toEqual({ code: 0, signal: null });
        const took = Date.now() - signalled;
        expect(took).toBeGreaterThanOrEqual(DRAIN_DEADLINE_MS - 100);
        expect(took).toBeLessThan(DRAIN_DEADLINE_MS + 8_000);
        expect(await outcome).toBe('cut off');
        expect(service.output()).toContain('"unfinished":1');
        expect(service.output()).toContain('requests cut off at the shutdown deadline');
        expect(await portIsFree(pgPort)).toBe(true);
      } finally {
        agent.destroy();
        await lock.end();
      }
    },
    SLOW,
  );

  it(
    'on Ctrl-C in a terminal (SIGINT to the whole process group) PostgreSQL outlives the request in flight',
    async () => {
      const service = await startService({ detached: true });
      await service.ready;
      const lock = await lockContact(contactId);
      const agent = new http.Agent({ keepAlive: true });
      try {
        const put = request(service, agent, 'PUT', `/v1/crm/contacts/${contactId}`, { company: 'Ctrl-C Ltd' });
        put.catch(() => {});
        await lock.waiter(put);
        process.kill(-service.child.pid!, 'SIGINT');
        await sleep(500);
        await lock.release();
        expect((await put).status).toBe(200);
        expect(await exitWithin(service, DRAIN_DEADLINE_MS)).toEqual({ code: 0, signal: null });
        expect(service.output()).not.toContain('terminating connection due to administrator command');
        expect(await portIsFree(pgPort)).toBe(true);
      } finally {
        agent.destroy();
        await lock.end();
      }
    },
    SLOW,
  );

  it(
    'exits 0 at once when PostgreSQL was stopped under the running server',
    async () => {
      const service = await startService();
      await service.ready;
      const postmaster = postmasterPid()!;
      process.kill(postmaster, 'SIGINT');
      for (let i = 0; i < 100 && alive(postmaster); i++) await sleep(100);
      expect(alive(postmaster)).toBe(false);

      const signalled = Date.now();
      service.child.kill('SIGTERM');
      // It took the 10 s forced-exit timer (exit 1): the old stop waited for an exit that had happened.
      expect(await exitWithin(service, 15_000)).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeLessThan(5_000);
    },
    SLOW,
  );
});

describe('npm start', () => {
  it(
    'SIGTERM to npm stops the service and its PostgreSQL, not only npm',
    async () => {
      const port = await freePort();
      const npm = watch(
        spawn('npm', ['start'], { cwd: ROOT, env: environment(port), stdio: ['ignore', 'pipe', 'pipe'] }),
        `http://127.0.0.1:${port}`,
      );
      await npm.ready;
      const owner = JSON.parse(await readFile(path.join(dataDir, 'postgres', 'owner.json'), 'utf8')) as {
        pid: number;
      };
      const postmaster = postmasterPid()!;
      expect(alive(owner.pid)).toBe(true);

      npm.child.kill('SIGTERM');
      expect(await exitWithin(npm, 20_000)).toEqual({ code: 0, signal: null });
      expect(alive(owner.pid)).toBe(false);
      expect(alive(postmaster)).toBe(false);
      expect(await portIsFree(port)).toBe(true);
      expect(await portIsFree(pgPort)).toBe(true);
    },
    SLOW,
  );
});
