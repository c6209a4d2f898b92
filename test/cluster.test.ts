import 'reflect-metadata';
// Several processes on one database, as an operator runs them: two API servers and
// two `npm run worker` processes; one worker is killed with SIGKILL while creates
// go on. Every committed contact.created must reach the subscriber, and the only
// duplicates allowed are events of the jobs the killed worker held (its job never
// marked done, so run again by the survivor): at most its concurrency times the
// batch of events one job carries. `npm run bench:cluster` does the same at length.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DELIVERY_BATCH } from '../src/jobs/delivery-jobs.js';
import { useServerPair } from './support/fixtures.js';
import { sleep, useReceivers } from './support/receiver.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const KEY = Buffer.alloc(32, 17).toString('base64');
/** Jobs each worker process runs at once: with DELIVERY_BATCH, what one can have in flight. */
const WORKER_CONCURRENCY = 2;
const CREATE_MS = 6_000;
const KILL_AFTER_MS = 3_000;

// Two API servers over one database; neither runs a worker (the worker processes do).
const [api1, api2] = useServerPair({ RATE_LIMIT_MAX: '1000000', WEBHOOK_SECRET_KEY: KEY });
const receiver = useReceivers();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startWorkerProcess(): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/jobs/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? ROOT,
      // Its receiver is on loopback: local conveniences (src/local-conveniences.ts).
      NODE_ENV: 'test',
      DATABASE_URL: api1.databaseUrl,
      WEBHOOK_SECRET_KEY: KEY,
      WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      WORKER_POLL_INTERVAL_MS: '100',
      // The survivor frees the dead one's jobs within half a second, not the default 30.
      WORKER_RECOVER_INTERVAL_MS: '500',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

async function started(worker: ReturnType<typeof startWorkerProcess>): Promise<void> {
  for (const deadline = Date.now() + 40_000; !/worker started/.test(worker.output()); await sleep(100)) {
    if (worker.child.exitCode !== null) throw new Error(`worker exited: ${worker.output()}`);
    if (Date.now() > deadline) throw new Error(`worker did not start: ${worker.output()}`);
  }
}

async function committedEvents(organizationId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: api1.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `select id from "Event" where "organizationId" = $1 and type = 'contact.created'`,
      [organizationId],
    );
    return rows.map(({ id }) => id);
  } finally {
    await client.end();
  }
}

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T> {
  const client = new pg.Client({ connectionString: api1.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows[0]!;
  } finally {
    await client.end();
  }
}

/** Delivery jobs not yet done: queued, running, or still in the fan-out queue. */
async function queuedDeliveries(): Promise<number> {
  const { n } = await query<{ n: number }>(
    `select ((select count(*) from graphile_worker.jobs where task_identifier = 'deliver_webhook')
           + (select count(*) from "WebhookFanout"))::int as n`,
  );
  return n;
}

async function recordedAttempts(organizationId: string) {
  return query<{ events: number; failed: number; recordedTwice: string[] }>(
    `select count(distinct "eventId")::int as events,
            count(*) filter (where status <> 'succeeded')::int as failed,
            coalesce((select array_agg("eventId") from (
              select "eventId" from "WebhookDelivery" where "organizationId" = $1
              group by "eventId" having count(*) > 1) twice), '{}') as "recordedTwice"
     from "WebhookDelivery" where "organizationId" = $1`,
    [organizationId],
  );
}

/** The events of the delivery jobs locked now, by the id (a worker process's pool) that locks them. */
async function lockedEvents(): Promise<Map<string, string[]>> {
  const { locked } = await query<{ locked: Record<string, string[]> | null }>(
    `select json_object_agg(locked_by, events) as locked from (
       select locked_by, array_agg(coalesce(payload->>'eventId', e.id)) as events
       from graphile_worker._private_jobs j
       left join lateral json_array_elements_text(j.payload->'eventIds') as e(id) on true
       where locked_by is not null group by locked_by) held`,
  );
  return new Map(Object.entries(locked ?? {}));
}

/** worker-liveness.ts's advisory lock space: a living worker holds (LOCK_SPACE, hashtext(its id)). */
const LIVENESS_LOCK_SPACE = 0x77686b01;

/** Of these worker ids, those whose liveness lock is gone (their process has died), read off pg_locks. */
async function deadWorkers(ids: string[]): Promise<string[]> {
  const { dead } = await query<{ dead: string[] | null }>(
    `select array_agg(id) as dead from unnest($1::text[]) as id
     where not exists (select 1 from pg_locks where locktype = 'advisory' and granted and objsubid = 2
       and classid = $2::bigint::oid and objid = (hashtext(id)::bigint & 4294967295)::oid)`,
    [ids, LIVENESS_LOCK_SPACE],
  );
  return dead ?? [];
}

describe('two APIs and two workers, one worker killed', () => {
  it('delivers every committed event; duplicates only from the killed worker in flight', async () => {
    const org = await api1.org();
    const key = await org.key(['admin']);
    // Answers take 100 ms, so a worker always has deliveries in flight when it dies.
    const target = await receiver(() => ({ delayMs: 100 }));
    const hook = await api1.rest('POST', '/v1/webhooks', {
      key,
      body: { url: target.url, events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const workers = [startWorkerProcess(), startWorkerProcess()];
    await Promise.all(workers.map(started));

    const begun = Date.now();
    let killed = false;
    /** What each worker held just before and just after the kill (the survivor may free them at any moment). */
    const held = new Map<string, Set<string>>();
    const remember = (locked: Map<string, string[]>) => {
      for (const [id, events] of locked)
        for (const event of events) held.set(id, (held.get(id) ?? new Set()).add(event));
    };
    let heldAtDeath = 0;
    let created = 0;
    while (Date.now() - begun < CREATE_MS) {
      // Killed once both workers hold jobs, so the one killed surely has some in flight.
      const locked = !killed && Date.now() - begun > KILL_AFTER_MS ? await lockedEvents() : undefined;
      if (locked?.size === 2) {
        killed = true;
        remember(locked);
        workers[0]!.child.kill('SIGKILL');
        await workers[0]!.exited;
        const after = await lockedEvents();
        remember(after);
        // It may have finished its jobs between the look and the kill: then there is nothing to release.
        // (Its backend notices the closed socket a moment after the exit, and lets go of its liveness lock.)
        let [deadId] = await deadWorkers([...locked.keys()]);
        for (const until = Date.now() + 5_000; !deadId && Date.now() < until; await sleep(20)) {
          [deadId] = await deadWorkers([...locked.keys()]);
        }
        expect(deadId).toBeDefined();
        heldAtDeath = after.get(deadId!)?.length ?? 0;
      }
      const batch = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? api2 : api1).rest('POST', '/v1/crm/contacts', {
            key,
            body: { email: `cluster${created + i}@example.test` },
          }),
        ),
      );
      for (const res of batch) expect(res.status, res.text).toBe(201);
      created += batch.length;
      await sleep(20);
    }

    expect(killed).toBe(true);
    const events = await committedEvents(org.id);
    expect(events).toHaveLength(created);
    const delivered = () => new Set(target.received.map((request) => String(request.headers['webhook-id'])));
    for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
      const missing = events.filter((id) => !delivered().has(id));
      if (!missing.length) break;
      if (Date.now() > deadline) throw new Error(`${missing.length} of ${events.length} events never delivered`);
    }
    // Every job done, the dead worker's too (a job it left locked would stay for graphile-worker's 4 hours).
    for (const deadline = Date.now() + 15_000; (await queuedDeliveries()) > 0; await sleep(100)) {
      if (Date.now() > deadline) throw new Error(`${await queuedDeliveries()} delivery jobs never done`);
    }
    await sleep(1_000); // a late duplicate would arrive now

    const firstAt = new Map<string, number>();
    const duplicates: { id: string; first: number }[] = [];
    for (const request of target.received) {
      const id = String(request.headers['webhook-id']);
      const first = firstAt.get(id);
      if (first === undefined) firstAt.set(id, request.at);
      else duplicates.push({ id, first });
    }
    // Every event was sent and only ones of the committed.
    expect([...firstAt.keys()].sort()).toEqual([...events].sort());
    // A duplicate is an event of a job the killed worker held: the survivor names that worker when it frees them.
    const released = /"workers":(\[[^\]]*\]).*released the jobs of workers that died/.exec(workers[1]!.output());
    // Jobs the dead worker still held are released by the survivor, which names it.
    if (heldAtDeath > 0) expect(released, workers[1]!.output()).not.toBeNull();
    const dead = released ? (JSON.parse(released[1]!) as string[]) : [];
    const ofDead = new Set(dead.flatMap((id) => [...(held.get(id) ?? [])]));
    if (heldAtDeath > 0) expect(ofDead.size).toBeGreaterThan(0);
    expect(duplicates.filter(({ id }) => !ofDead.has(id))).toEqual([]);
    expect(duplicates.length).toBeLessThanOrEqual(WORKER_CONCURRENCY * DELIVERY_BATCH);
    // The deliveries log: every event recorded, nothing failed; an event is recorded twice only when
    // it was sent twice (the killed worker recorded its attempt but died before its job was marked done).
    const log = await recordedAttempts(org.id);
    expect(log.failed).toBe(0);
    expect(log.events).toBe(events.length);
    const sentTwice = new Set(duplicates.map(({ id }) => id));
    expect(log.recordedTwice.filter((id) => !sentTwice.has(id))).toEqual([]);
    console.log(
      `cluster: ${created} created, ${duplicates.length} duplicates from the killed worker's jobs in flight, ` +
        `${log.recordedTwice.length} of them recorded by it before it died`,
    );

    workers[1]!.child.kill('SIGTERM');
    await workers[1]!.exited;
    expect(workers[1]!.child.exitCode).toBe(0);
  }, 60_000);
});
