// Jobs of a worker process that died (SIGKILL, OOM, power) stay locked, and
// graphile-worker itself frees such jobs only after 4 hours. So each worker
// process holds a PostgreSQL session advisory lock per id it locks jobs under, on
// a connection of its own, for as long as it lives: PostgreSQL drops the locks
// with the session when the process dies. Every worker process, at start and then
// every recover interval, looks at the ids that lock jobs; an id whose advisory
// lock nobody holds belongs to a dead process, and its jobs are unlocked for the
// living. A job is then delivered again: receivers deduplicate on the event id.
//
// Only graphile-worker's documented surfaces are used, none of its private tables
// (which it may change in a patch release): the `pool:create` event names each
// WorkerPool; the `graphile_worker.jobs` view's `locked_by` is "the WorkerPool id
// that the job was locked by" (its docs, "The 'jobs' view": a column changes only
// in a semver major); `graphile_worker.force_unlock_workers` is its admin function
// for exactly this, workers known dead. test/worker-liveness.test.ts checks that
// jobs are locked under the id the event names.
//
// The holding connection is opened again when it is lost (PostgreSQL restarted, or a
// failover to another node, which knows none of the old session's locks) and takes
// every mark again; meanwhile this process never takes its own ids for dead.
import type { EventEmitter } from 'node:events';
import type pg from 'pg';
import { newClient } from '../db/multi-host.js';
import type { Logger } from '../logger.js';

/** The first key of the two-key advisory locks: "whk" + 1, so as not to meet other advisory locks. */
const LOCK_SPACE = 0x77686b01;

export interface Liveness {
  /** Frees the jobs of dead workers now; returns the worker ids freed. */
  recover(): Promise<string[]>;
  /**
   * Resolves once the id this process locks jobs under (its pool's) is marked.
   * Workers wait for it before their first fetch (worker.ts), so no job is ever
   * locked under an id that another process could take for dead.
   */
  marked(): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveness(
  databaseUrl: string,
  pool: pg.Pool,
  events: EventEmitter,
  logger: Logger,
  recoverIntervalMs: number,
): Promise<Liveness> {
  const ownIds = new Set<string>();
  let closed = false;
  let reconnecting: NodeJS.Timeout | undefined;
  const lost = new WeakSet<pg.Client>();
  const lock = (client: pg.Client, id: string) =>
    client.query('select pg_advisory_lock($1, hashtext($2))', [LOCK_SPACE, id]);

  async function connectHolder(): Promise<pg.Client> {
    const client = newClient(databaseUrl);
    client.on('error', (error) => {
      if (lost.has(client)) return;
      lost.add(client);
      // Only the connection holding the marks now matters (a lost one may report more than one error).
      if (closed || client !== holder) return;
      logger.warn({ error: error.message }, 'worker liveness connection lost; reconnecting');
      reconnectSoon(1);
    });
    await client.connect();
    return client;
  }

  // Every second, then up to every 5 s, until a connection holds every mark again.
  function reconnectSoon(attempt: number): void {
    if (closed || reconnecting) return;
    reconnecting = setTimeout(
      () => {
        reconnecting = undefined;
        held = held.then(async () => {
          if (closed) return;
          try {
            const client = await connectHolder();
            for (const id of ownIds) await lock(client, id);
            await holder.end().catch(() => {});
            holder = client;
            // Lost while it was taking the marks: again.
            if (lost.has(client)) reconnectSoon(1);
            logger.info({ workers: [...ownIds] }, 'worker liveness marks taken again');
          } catch (error) {
            logger.warn({ error: (error as Error).message }, 'worker liveness cannot reconnect yet');
            reconnectSoon(attempt + 1);
          }
        });
      },
      Math.min(1000 * attempt, 5000),
    ).unref();
  }

  let holder = await connectHolder();
  let held = Promise.resolve();
  const markAlive = (id: string) => {
    ownIds.add(id);
    held = held
      .then(() => lock(holder, id))
      .then(
        () => undefined,
        (error: Error) => logger.warn({ error: error.message, id }, 'cannot mark a worker alive'),
      );
  };
  events.on('pool:create', ({ workerPool }: { workerPool: { id: string } }) => markAlive(workerPool.id));

  async function recover(): Promise<string[]> {
    // This process's own marks are granted before it judges anyone.
    await held;
    const client = await pool.connect();
    try {
      // Read seldom (once a recover interval) and outside a transaction, as the view's docs ask.
      const { rows } = await client.query<{ id: string }>(
        `select distinct locked_by as id from graphile_worker.jobs where locked_by is not null`,
      );
      const dead: string[] = [];
      for (const { id } of rows) {
        // Alive by definition, even while a lost holding connection is being replaced.
        if (ownIds.has(id)) continue;
        const { rows: probe } = await client.query<{ free: boolean }>(
          'select pg_try_advisory_lock($1, hashtext($2)) as free',
          [LOCK_SPACE, id],
        );
        if (probe[0]?.free) {
          dead.push(id);
          await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, id]);
        }
      }
      if (dead.length) {
        await client.query('select graphile_worker.force_unlock_workers($1::text[])', [dead]);
        logger.warn({ workers: dead }, 'released the jobs of workers that died');
      }
      return dead;
    } finally {
      client.release();
    }
  }

  const timer = setInterval(
    () => void recover().catch((error: Error) => logger.warn({ error: error.message }, 'worker recovery failed')),
    recoverIntervalMs,
  ).unref();

  return {
    recover,
    marked: () => held,
    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(reconnecting);
      await held;
      await holder.end().catch(() => {});
    },
  };
}
