import 'reflect-metadata';
// The worker as a process of its own (`npm run worker`): a committed change whose
// process died before any delivery still reaches its subscriber once a worker
// runs (the job was committed with the change); the worker stops gracefully on
// SIGTERM; the hourly prune removes what is past its retention.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { prune } from '../src/jobs/prune.js';
import { useServer } from './support/fixtures.js';
import { eventually, sleep, useReceivers, type Receiver } from './support/receiver.js';
import { spawnWorkerProcess, type WorkerProcess } from './support/worker-process.js';

const KEY = Buffer.alloc(32, 11).toString('base64');
// No worker in this process: the API commits, and nothing delivers until a worker process runs.
const server = useServer({ RATE_LIMIT_MAX: '1000000', WEBHOOK_SECRET_KEY: KEY });
const receiver = useReceivers();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function startWorkerProcess(env: Record<string, string> = {}): WorkerProcess {
  const worker = spawnWorkerProcess({
    databaseUrl: server.databaseUrl,
    secretKey: KEY,
    env: { WORKER_POLL_INTERVAL_MS: '100', ...env },
  });
  children.push(worker.child);
  return worker;
}

async function queuedDeliveries(): Promise<number> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      // Queued durably: as jobs, or still in the fan-out queue the worker's dispatcher empties.
      `select (select count(*) from graphile_worker.jobs where task_identifier = 'deliver_webhook')
            + (select count(*) from "WebhookFanout") as n`,
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

describe('npm run worker', () => {
  it('delivers what was committed while no worker ran, then stops on SIGTERM', async () => {
    const key = await (await server.org()).key(['admin']);
    const target = await receiver();
    const hook = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: target.url, events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const contacts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: `w${i}@example.test` } });
      expect(res.status).toBe(201);
      contacts.push(res.body.id);
    }
    // The API process could die now: the jobs are in the database with the changes.
    expect(await queuedDeliveries()).toBe(3);
    await sleep(300);
    expect(target.received).toHaveLength(0);

    const worker = startWorkerProcess();
    const requests = await target.waitFor(3, 20_000);
    expect(requests.map((request) => JSON.parse(request.body).data.object.id).sort()).toEqual([...contacts].sort());
    // Each job is done once its attempt is recorded, just after the answer.
    await eventually(async () => (await queuedDeliveries()) === 0);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toMatch(/worker stopped/);
  });
});

describe('a worker killed with deliveries in flight', () => {
  it('loses nothing: a new worker delivers every committed event (duplicates allowed, same event ids)', async () => {
    const key = await (await server.org()).key(['admin']);
    let killed = false;
    // Slow answers while the first worker lives, so that its deliveries are in flight when it dies.
    const target = await receiver(() => (killed ? {} : { delayMs: 10_000 }));
    const hook = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: target.url, events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const first = startWorkerProcess();
    const events: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: `k${i}@example.test` } });
      expect(res.status).toBe(201);
    }
    const committed = await server.rest('GET', '/v1/events?type=contact.created&limit=100', { key });
    events.push(...committed.body.data.map((event: { id: string }) => event.id));
    expect(events).toHaveLength(5);
    await target.waitFor(5, 20_000);
    first.child.kill('SIGKILL');
    await first.exited;
    killed = true;

    const second = startWorkerProcess();
    await eventuallyDelivered(target, events);
    expect(second.output()).toMatch(/released the jobs of workers that died/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

describe('busy workers beside each other', () => {
  it('never take each other for dead: every event delivered once, no jobs released', async () => {
    const key = await (await server.org()).key(['admin']);
    // An ordinary receiver: 150 ms an answer, so every worker has deliveries in flight at each check.
    const target = await receiver(() => ({ delayMs: 150 }));
    const hook = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: target.url, events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    // Each process checks for dead workers every 300 ms: about 25 checks each while jobs are locked.
    const workers = [0, 1].map(() => startWorkerProcess({ WORKER_RECOVER_INTERVAL_MS: '300' }));
    const until = Date.now() + 8_000;
    let created = 0;
    while (Date.now() < until) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          server.rest('POST', '/v1/crm/contacts', { key, body: { email: `busy${created + i}@example.test` } }),
        ),
      );
      for (const res of batch) expect(res.status).toBe(201);
      created += batch.length;
      await sleep(20);
    }
    await target.waitFor(created, 30_000).catch(async (error: Error) => {
      throw new Error(`${error.message}; attempts that failed: ${JSON.stringify(await failedAttempts())}`);
    });
    await eventually(async () => (await queuedDeliveries()) === 0);
    await sleep(500); // a doubled delivery would arrive now
    const ids = target.received.map((request) => String(request.headers['webhook-id']));
    expect(new Set(ids).size).toBe(created);
    expect(ids).toHaveLength(created);
    for (const worker of workers) {
      expect(worker.output()).not.toMatch(/released the jobs of workers that died/);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  }, 90_000);
});

async function failedAttempts(): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select "eventId", attempt, "statusCode", error from "WebhookDelivery" where status <> 'succeeded'`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

async function eventuallyDelivered(target: Receiver, events: string[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    // Answered requests: those after the kill (the first 5 were cut off with their worker).
    const delivered = new Set(target.received.slice(5).map((request) => String(request.headers['webhook-id'])));
    if (events.every((id) => delivered.has(id))) return;
    if (Date.now() > deadline) throw new Error(`delivered ${[...delivered].join(', ')} of ${events.join(', ')}`);
    await sleep(100);
  }
}

describe('prune', () => {
  it('removes events, delivery logs and idempotency keys past their retention, and keeps the rest', async () => {
    const org = await server.org();
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into "Event" (id, "organizationId", type, data, "createdAt") values
           ('evt_old0000000000000000000000', $1, 'contact.created', '{}', $2),
           ('evt_new0000000000000000000000', $1, 'contact.created', '{}', now())`,
        [org.id, old],
      );
      const hook = await client.query(
        `insert into "Webhook" (id, "organizationId", url, events, "secretEncrypted", "updatedAt")
         values ('whk_prune000000000000000000000', $1, 'http://127.0.0.1:9', '{}', 'x', now()) returning id`,
        [org.id],
      );
      await client.query(
        `insert into "WebhookDelivery" (id, "organizationId", "webhookId", "eventId", "eventType", attempt, trigger,
           status, "durationMs", "createdAt") values
           ('whd_old0000000000000000000000', $1, $2, 'evt_x', 'contact.created', 1, 'event', 'failed', 1, $3),
           ('whd_new0000000000000000000000', $1, $2, 'evt_x', 'contact.created', 1, 'event', 'failed', 1, now())`,
        [org.id, hook.rows[0].id, old],
      );
      await client.query(
        `insert into "IdempotencyKey" ("organizationId", credential, key, "requestHash", status, "createdAt") values
           ($1, 'key_x', 'old', 'h', 'completed', now() - interval '25 hours'),
           ($1, 'key_x', 'new', 'h', 'completed', now())`,
        [org.id],
      );
      const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
      const pruned = await prune({ pool, config: server.config }).finally(() => pool.end());
      expect(pruned.events).toBeGreaterThanOrEqual(1);
      expect(pruned.deliveries).toBeGreaterThanOrEqual(1);
      expect(pruned.idempotencyKeys).toBeGreaterThanOrEqual(1);
      const left = async (table: string, where: string) =>
        (await client.query(`select count(*)::int as n from "${table}" where ${where}`, [org.id])).rows[0].n;
      expect(await left('Event', `"organizationId" = $1 and id like 'evt_old%'`)).toBe(0);
      expect(await left('Event', `"organizationId" = $1 and id like 'evt_new%'`)).toBe(1);
      expect(await left('WebhookDelivery', `"organizationId" = $1 and id like 'whd_old%'`)).toBe(0);
      expect(await left('WebhookDelivery', `"organizationId" = $1 and id like 'whd_new%'`)).toBe(1);
      expect(await left('IdempotencyKey', `"organizationId" = $1 and key = 'old'`)).toBe(0);
      expect(await left('IdempotencyKey', `"organizationId" = $1 and key = 'new'`)).toBe(1);
    } finally {
      await client.end();
    }
  });
});
