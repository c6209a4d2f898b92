// Worker liveness (src/jobs/worker-liveness.ts) over graphile-worker's public
// surfaces only: a job is locked under the id of the WorkerPool that the
// `pool:create` event names (as the `graphile_worker.jobs` view's docs say), so
// the id each process marks alive is the one its jobs carry; an upgrade that locks
// under another id fails here, not in production. recover() frees the jobs of an
// id nobody marks and leaves those of a marked one.
import { EventEmitter } from 'node:events';
import { run, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quietWorkerLogger } from '../src/jobs/worker-schema.js';
import { startLiveness } from '../src/jobs/worker-liveness.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;
let pool: pg.Pool;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 10 });
  pool.on('error', () => {}); // a client dropped with the database at the end
});

// Each test's runners stop after it: a job still locked would count as a dead worker's in the next.
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

interface HoldingRunner {
  /** The id of its WorkerPool, as `pool:create` named it. */
  poolId: () => string | undefined;
  /** Resolves once its one job has started (and is locked). */
  started: Promise<void>;
}

/** A runner of one task whose job stays running (locked) until the test ends. */
async function holdingRunner(task: string, events = new EventEmitter()): Promise<HoldingRunner> {
  let poolId: string | undefined;
  events.on('pool:create', ({ workerPool }: { workerPool: { id: string } }) => (poolId = workerPool.id));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const runner = await run({
    pgPool: pool,
    events: events as WorkerEvents,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: 100,
    logger: quietWorkerLogger,
    taskList: {
      [task]: async () => {
        started();
        await held;
      },
    },
  });
  cleanups.push(async () => {
    release();
    await runner.stop();
  });
  return { poolId: () => poolId, started: startedPromise };
}

async function addJob(task: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(`select (graphile_worker.add_job($1, '{}'::json)).id::text as id`, [
    task,
  ]);
  return rows[0]!.id;
}

async function lockedBy(jobId: string): Promise<string | null> {
  const { rows } = await pool.query<{ locked_by: string | null }>(
    'select locked_by from graphile_worker.jobs where id = $1',
    [jobId],
  );
  return rows[0]!.locked_by;
}

describe('worker liveness', () => {
  it('sees a running job locked under the WorkerPool id that pool:create named', async () => {
    const holder = await holdingRunner('liveness_probe');
    const job = await addJob('liveness_probe');
    await holder.started;
    expect(holder.poolId()).toMatch(/\S/);
    expect(await lockedBy(job)).toBe(holder.poolId());
  });

  it('frees the jobs of an unmarked id (a dead process) and keeps those of a marked one', async () => {
    // No liveness here: to the others this runner is a process that died with its job locked.
    const dead = await holdingRunner('liveness_dead');
    const deadJob = await addJob('liveness_dead');
    await dead.started;

    // As worker.ts does: liveness listens before the runner starts, so it marks the runner's pool.
    const events = new EventEmitter();
    const liveness = await startLiveness(database.url, pool, events, pino({ level: 'silent' }), 60_000);
    cleanups.push(() => liveness.close());
    const living = await holdingRunner('liveness_living', events);
    await liveness.marked();
    const livingJob = await addJob('liveness_living');
    await living.started;

    expect(await liveness.recover()).toEqual([dead.poolId()]);
    expect(await lockedBy(deadJob)).toBeNull();
    expect(await lockedBy(livingJob)).toBe(living.poolId());
    // Nothing left to free: the living one is marked, and the freed job is not locked again by anyone.
    expect(await liveness.recover()).toEqual([]);
  });
});
