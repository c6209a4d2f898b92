// What the metrics read when scraped: the pg pools a process opened (API, worker),
// and, from a worker's pool, the job queue and the webhook fan-out backlog. Each
// source is registered by what owns it and removed when that closes, so one
// endpoint shows whatever runs in the process.
import client from 'prom-client';
import type pg from 'pg';
import { DELIVER_WEBHOOK } from '../jobs/delivery-jobs.js';
import { EXPORT_JOBS, IMPORT_JOBS } from '../jobs/file-jobs.js';
import { END_NOTICES, OVERDUE_INVOICES } from '../jobs/notice-jobs.js';
import { PRUNE } from '../jobs/prune.js';
import { registry } from './registry.js';

/** A scrape's queries give up after this: a slow database must not hang the scrape. */
const QUERY_TIMEOUT_MS = 2_000;

/** Rows, or none when the database does not answer: the series is then absent, and the rest of the scrape still served. */
async function scrapeQuery<T extends pg.QueryResultRow>(pool: pg.Pool, text: string, values?: unknown[]): Promise<T[]> {
  try {
    return (await pool.query<T>({ text, values, query_timeout: QUERY_TIMEOUT_MS } as pg.QueryConfig)).rows;
  } catch {
    scrapeQueryFailures.inc();
    return [];
  }
}

const scrapeQueryFailures = new client.Counter({
  name: 'metrics_scrape_query_failures_total',
  help: 'Queries of a scrape (job queue, fan-out backlog) the database did not answer in time',
  registers: [registry],
});

const pools = new Map<pg.Pool, string>();
const queues = new Set<pg.Pool>();

/** Counts `pool`'s connections under `name` until the returned function is called. */
export function watchPool(name: string, pool: pg.Pool): () => void {
  pools.set(pool, name);
  return () => void pools.delete(pool);
}

/** Reads the job queue and the fan-out backlog through `pool` at each scrape until the returned function is called. */
export function watchQueue(pool: pg.Pool): () => void {
  queues.add(pool);
  return () => void queues.delete(pool);
}

new client.Gauge({
  name: 'db_pool_connections',
  help: 'Connections of each pg pool: total open, idle, and queries waiting for one (waiting > 0: the pool is exhausted)',
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [pool, name] of pools) {
      this.inc({ pool: name, state: 'total' }, pool.totalCount);
      this.inc({ pool: name, state: 'idle' }, pool.idleCount);
      this.inc({ pool: name, state: 'waiting' }, pool.waitingCount);
    }
  },
});

new client.Gauge({
  name: 'db_pool_max_connections',
  help: 'The size each pg pool may grow to',
  labelNames: ['pool'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [pool, name] of pools) this.inc({ pool: name }, pool.options.max);
  },
});

// graphile-worker's documented jobs view (its private tables may change in any release):
// a queued job is unlocked with attempts left (scheduled: not due yet); a failed one is
// out of attempts and stays until deleted. Our tasks show at 0 when idle, and any other
// task with jobs (one an older release queued) shows too.
const WORKER_TASKS = [DELIVER_WEBHOOK, PRUNE, EXPORT_JOBS.task, IMPORT_JOBS.task, END_NOTICES, OVERDUE_INVOICES];
const JOBS_SQL = `select t.task,
    count(j.id) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())::int as queued,
    count(j.id) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at > now())::int as scheduled,
    count(j.id) filter (where j.locked_at is not null)::int as running,
    count(j.id) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::int as failed
  from (select unnest($1::text[]) as task union select task_identifier from graphile_worker.jobs) t
  left join graphile_worker.jobs j on j.task_identifier = t.task
  group by t.task`;

interface JobCounts {
  task: string;
  queued: number;
  scheduled: number;
  running: number;
  failed: number;
}

const JOB_STATES = ['queued', 'scheduled', 'running', 'failed'] as const;

new client.Gauge({
  name: 'worker_jobs',
  help: 'Jobs in the queue by task and state (queued: due; scheduled: later; running: locked; failed: out of attempts)',
  labelNames: ['task', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const pool = queues.values().next().value;
    if (!pool) return;
    const rows = await scrapeQuery<JobCounts>(pool, JOBS_SQL, [WORKER_TASKS]);
    for (const row of rows) for (const state of JOB_STATES) this.set({ task: row.task, state }, row[state]);
  },
});

new client.Gauge({
  name: 'webhook_fanout_backlog',
  help: 'Deliveries the event trigger queued that the dispatcher has not yet turned into jobs ("WebhookFanout" rows)',
  registers: [registry],
  async collect() {
    this.reset();
    const pool = queues.values().next().value;
    if (!pool) return;
    const rows = await scrapeQuery<{ count: number }>(pool, 'select count(*)::int as count from "WebhookFanout"');
    if (rows[0]) this.set(rows[0].count);
  },
});

// Exports (src/jobs/run-export.ts) by status, and the rows written and to write of those running.
const EXPORTS_SQL = `select status, count(*)::int as count, coalesce(sum("rowsWritten"), 0)::float8 as written,
    coalesce(sum("rowsTotal"), 0)::float8 as total
  from "Export" group by status`;

new client.Gauge({
  name: 'exports',
  help: 'Exports by status (pending, running, completed, failed), every organization',
  labelNames: ['status'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const pool = queues.values().next().value;
    if (!pool) return;
    const rows = await scrapeQuery<{ status: string; count: number }>(pool, EXPORTS_SQL);
    for (const row of rows) this.set({ status: row.status }, row.count);
  },
});

new client.Gauge({
  name: 'export_rows',
  help: 'Progress of the running exports: rows written so far and rows to write (their rowsTotal), summed',
  labelNames: ['of'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const pool = queues.values().next().value;
    if (!pool) return;
    const rows = await scrapeQuery<{ status: string; written: number; total: number }>(pool, EXPORTS_SQL);
    const running = rows.find((row) => row.status === 'running');
    this.set({ of: 'written' }, running?.written ?? 0);
    this.set({ of: 'total' }, running?.total ?? 0);
  },
});
