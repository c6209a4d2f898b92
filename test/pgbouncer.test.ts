// The service behind PgBouncer in transaction mode (what managed PostgreSQL
// offers): DATABASE_URL through PgBouncer, DATABASE_DIRECT_URL straight to
// PostgreSQL for what needs a session (migrations, LISTEN, the worker, advisory
// locks). Creates share a few server connections (no named statement may
// collide), the statement timeout still cuts a slow transaction, a revoked key
// is refused at once, and `npm start` with its worker delivers webhooks.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { freePort } from './support/free-port.js';
import { npmScript } from './support/npm-script.js';
import { PGBOUNCER, startPgBouncer, type PgBouncer } from './support/pgbouncer.js';
import { eventually, startReceiver } from './support/receiver.js';
import { startTestServer, type TestServer } from './support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * A machine without pgbouncer skips these tests and says so, unless
 * REQUIRE_PGBOUNCER=1 (set by .ci/run, which installs Debian's pgbouncer first).
 */
const REQUIRED = process.env.REQUIRE_PGBOUNCER === '1';
if (!PGBOUNCER && !REQUIRED) {
  console.warn('pgbouncer.test.ts: no pgbouncer found (apt-get install pgbouncer, or set PGBOUNCER_PATH); skipped');
}
const run = !!PGBOUNCER || REQUIRED;

let bouncer: PgBouncer;
let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  if (!run) return;
  if (!PGBOUNCER) throw new Error('REQUIRE_PGBOUNCER=1 but no pgbouncer found (PGBOUNCER_PATH, /usr/sbin/pgbouncer)');
  database = await createTestDatabase();
  bouncer = await startPgBouncer(database.url);
  server = await startTestServer(serverEnv(), database);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await bouncer?.stop();
  await database?.drop();
});

/** A server's settings: the API's connections through PgBouncer, the direct one beside. */
function serverEnv(): Record<string, string> {
  return {
    DATABASE_URL: bouncer.urlOf(database.url),
    DATABASE_DIRECT_URL: database.url,
    // More API connections than PgBouncer has server connections: they take turns on them.
    DATABASE_POOL_SIZE: '12',
    DATABASE_STATEMENT_TIMEOUT_MS: '500',
    RATE_LIMIT_MAX: '100000',
  };
}

/** `npm start` as a child process, with these settings over a development environment of its own. */
async function startService(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bp-test-pgbouncer-service-'));
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const { env: scriptEnv, args } = npmScript('start');
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...scriptEnv,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? ROOT,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function keyFor(scopes: Parameters<TestServer['createKey']>[1]) {
  return server.createKey(await server.createOrganization(), scopes);
}

describe.runIf(run)('behind PgBouncer in transaction mode', () => {
  it('many concurrent creates of contacts and deals all succeed, and lists and updates work', async () => {
    const key = await keyFor(['crm:read', 'crm:write']);
    const contacts = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        server.request('POST', '/v1/crm/contacts', { key, body: { email: `c${i}@example.com`, firstName: 'Ada' } }),
      ),
    );
    expect(contacts.map((res) => res.status)).toEqual(contacts.map(() => 201));
    const deals = await Promise.all(
      contacts.map((contact, i) =>
        server.request('POST', '/v1/crm/deals', {
          key,
          body: { title: `Deal ${i}`, amount: 1000 + i, currency: 'EUR', contactId: contact.body.id },
        }),
      ),
    );
    expect(deals.map((res) => res.status)).toEqual(deals.map(() => 201));

    const lists = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request('GET', `/v1/crm/${i % 2 ? 'deals' : 'contacts'}?limit=10&q=${i % 2 ? 'Deal' : 'example'}`, {
          key,
        }),
      ),
    );
    expect(lists.map((res) => res.status)).toEqual(lists.map(() => 200));
    const contactList = await server.request('GET', '/v1/crm/contacts?limit=100', { key });
    expect(contactList.body.data).toHaveLength(60);

    const updates = await Promise.all(
      deals.map((deal, i) =>
        server
          .request('PUT', `/v1/crm/deals/${deal.body.id}`, { key, body: { stage: 'won' } })
          .then((res) => [i, res] as const),
      ),
    );
    expect(updates.map(([, res]) => res.status)).toEqual(updates.map(() => 200));
    const won = await server.request('GET', '/v1/crm/deals?limit=100&stage=won', { key });
    expect(won.body.data).toHaveLength(60);
  });

  it('cuts a statement past DATABASE_STATEMENT_TIMEOUT_MS in a transaction (503), and leaves no timeout in the pooled sessions', async () => {
    const key = await keyFor(['crm:read', 'crm:write']);
    const created = await server.request('POST', '/v1/crm/contacts', { key, body: { email: 'slow@example.com' } });
    expect(created.status).toBe(201);
    // Another session holds the row: the update's SELECT ... FOR UPDATE waits on it.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select 1 from "Contact" where id = $1 for update', [created.body.id]);
      const started = performance.now();
      const res = await server.request('PUT', `/v1/crm/contacts/${created.body.id}`, {
        key,
        body: { company: 'Slow' },
      });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    const res = await server.request('PUT', `/v1/crm/contacts/${created.body.id}`, {
      key,
      body: { company: 'Fast' },
    });
    expect(res.status).toBe(200);
    // SET LOCAL ends with its transaction: a server connection handed to the next client carries nothing.
    const [row] = await server.prisma.$queryRaw<{ statement_timeout: string }[]>`show statement_timeout`;
    expect(row?.statement_timeout).toBe('0');
  });

  it('refuses a revoked key at once, though it was just used (LISTEN on the direct connection)', async () => {
    // Revoked through another server process: only its NOTIFY can tell this one.
    const other = await startTestServer(serverEnv(), database);
    try {
      const organizationId = await server.createOrganization();
      const doomed = await server.createKey(organizationId, ['crm:read']);
      expect((await server.request('GET', '/v1/crm/contacts', { key: doomed })).status).toBe(200);
      const { id } = await server.prisma.apiKey.findFirstOrThrow({ where: { organizationId } });
      await other.revokeKey(id);
      await eventually(
        async () => (await server.request('GET', '/v1/crm/contacts', { key: doomed })).status === 401,
        2000,
      );
    } finally {
      await other.close();
    }
  });

  it('runs `npm start` (migrations, API, worker) with DATABASE_URL through PgBouncer and delivers webhooks', async () => {
    const receiver = await startReceiver();
    const service = await startService({
      DATABASE_URL: bouncer.urlOf(database.url),
      DATABASE_DIRECT_URL: database.url,
      WORKER_POLL_INTERVAL_MS: '100',
    });
    try {
      await eventually(async () => {
        if (service.child.exitCode !== null) throw new Error(`the service exited:\n${service.output()}`);
        return /"msg":"listening"/.test(service.output());
      }, 30_000);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const key = await keyFor(['admin']);
      const call = async (method: string, route: string, body: unknown) => {
        const res = await fetch(service.url + route, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as { id: string } };
      };
      const hook = await call('POST', '/v1/webhooks', { url: receiver.url, events: ['contact.created'] });
      expect(hook.status).toBe(201);
      const contact = await call('POST', '/v1/crm/contacts', { email: 'hooked@example.com' });
      expect(contact.status).toBe(201);
      const [delivery] = await receiver.waitFor(1, 15_000);
      expect(JSON.parse(delivery!.body)).toMatchObject({
        type: 'contact.created',
        data: { object: { id: contact.body.id } },
      });
      expect(service.output()).not.toMatch(/"level":50/);
      // The role here has no statement_timeout: single statements are unguarded, and the log says so.
      expect(service.output()).toMatch(/DATABASE_STATEMENT_TIMEOUT_MS holds in transactions only/);
    } finally {
      await service.stop();
      await receiver.close();
    }
  }, 60_000);

  it('`npm start` with DATABASE_URL through PgBouncer and no DATABASE_DIRECT_URL stops, saying what to set', async () => {
    const service = await startService({ DATABASE_URL: bouncer.urlOf(database.url) });
    try {
      await eventually(async () => service.child.exitCode !== null, 30_000);
      expect(service.child.exitCode).toBe(1);
      expect(service.output()).toMatch(/DATABASE_URL leads to a connection pooler such as PgBouncer/);
      expect(service.output()).toMatch(/set DATABASE_DIRECT_URL/);
    } finally {
      await service.stop();
    }
  }, 60_000);
});
