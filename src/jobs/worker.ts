// The background worker: graphile-worker over the service's PostgreSQL, running
// webhook deliveries (deliver-webhook.ts), exports (run-export.ts), imports (run-import.ts), the hourly prune (prune.ts) and
// the end of notice periods and overdue invoices every minute (end-notices.ts, overdue-invoices.ts). It
// runs inside `npm start` (unless WORKER=off) and alone with `npm run worker`;
// any number of API and worker processes share the one queue. stop() is
// graceful: no new job is taken, jobs in flight finish (or, past graphile-worker's
// abort timeout, are released for another worker). A worker that dies without
// stopping has its jobs released by the others (worker-liveness.ts).
import { EventEmitter } from 'node:events';
import {
  Logger as WorkerLogger,
  parseCronItems,
  run,
  type LogLevel,
  type Runner,
  type WorkerEvents,
} from 'graphile-worker';
import type { Config } from '../config.js';
import { newPool } from '../db/multi-host.js';
import { trackPoolClosing } from '../db/pool-closing.js';
import type { Logger } from '../logger.js';
import { deliverWebhookTask } from './deliver-webhook.js';
import { DELIVER_WEBHOOK } from './delivery-jobs.js';
import { OutageLog } from '../outage-log.js';
import { startFanOut, type FanOutDispatcher } from './fan-out.js';
import { observeWorker } from './job-metrics.js';
import { endNoticesTask } from './end-notices.js';
import { END_NOTICES, OVERDUE_INVOICES } from './notice-jobs.js';
import { overdueInvoicesTask } from './overdue-invoices.js';
import { PRUNE, pruneTask } from './prune.js';
import { EXPORT_JOBS, IMPORT_JOBS } from './file-jobs.js';
import { runExportTask } from './run-export.js';
import { runImportTask } from './run-import.js';
import { resealWebhookSecrets } from './webhook-secret-reseal.js';
import { webhookSecretsFor } from './webhook-secrets.js';
import { workerClient } from './worker-connections.js';
import { startLiveness, type Liveness } from './worker-liveness.js';

export interface Worker {
  runner: Runner;
  /** Takes no new job, lets the ones in flight finish, closes the pool. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  config: Config;
  /** A direct connection, never a transaction pooler's: graphile-worker LISTENs, liveness holds session locks. */
  databaseUrl: string;
  logger: Logger;
  /** Poll for due jobs (scheduled retries) this often; new jobs arrive by LISTEN at once. */
  pollIntervalMs?: number;
}

/**
 * graphile-worker's log lines through the service's logger; its info is our debug.
 * Its errors and warnings go through the outage log: while the database is away it
 * repeats the same ones (a lost notify listener, failed fetches) every attempt.
 */
function workerLogger(logger: Logger, outages: OutageLog): WorkerLogger {
  const levels: Record<LogLevel, 'error' | 'warn' | 'debug'> = {
    error: 'error',
    warning: 'warn',
    info: 'debug',
    debug: 'debug',
  } as Record<LogLevel, 'error' | 'warn' | 'debug'>;
  return new WorkerLogger((scope) => (level, message, meta) => {
    const as = levels[level] ?? 'debug';
    if (as === 'debug') logger.debug({ worker: scope, ...meta }, message);
    else outages.failed(message, { worker: scope, ...meta }, as);
  });
}

/** Each worker's first fetch waits until the ids it locks jobs under are marked alive. */
function waitForLivenessMarks(liveness: Liveness): GraphileConfig.Plugin {
  return {
    name: 'WaitForLivenessMarks',
    version: '1.0.0',
    worker: { hooks: { startWorker: () => liveness.marked() } },
  };
}

export async function startWorker({ config, databaseUrl, logger, pollIntervalMs }: WorkerOptions): Promise<Worker> {
  const secrets = await webhookSecretsFor(config);
  // Finds the primary of a failover group (multi-host.ts); survives losing it (worker-connections.ts).
  let stopping: Promise<void> | undefined;
  const pool = newPool(databaseUrl, {
    max: config.worker.concurrency + 4,
    Client: workerClient(() => stopping !== undefined),
  });
  const poolClosing = trackPoolClosing(pool);
  // The dispatcher's success every few milliseconds ends an episode of repeated failures.
  const outages = new OutageLog(logger, 'failures');
  const connectionError = (error: Error & { code?: string }) =>
    outages.failed('worker database connection error', { code: error.code, error: error.message });
  pool.on('error', connectionError);
  pool.on('connect', (client) => client.on('error', connectionError));
  const events = new EventEmitter();
  let runner: Runner;
  let liveness: Liveness | undefined;
  let fanOut: FanOutDispatcher | undefined;
  try {
    // Secrets written under a previous master key (or before key ids) move to the current one.
    const sealing = await resealWebhookSecrets(pool, secrets, logger);
    if (sealing.resealed || sealing.unreadable) logger.info(sealing, 'webhook secrets sealed under the current key');
    liveness = await startLiveness(databaseUrl, pool, events, logger, config.worker.recoverIntervalMs);
    runner = await run({
      pgPool: pool,
      events: events as WorkerEvents,
      concurrency: config.worker.concurrency,
      noHandleSignals: true,
      pollInterval: pollIntervalMs ?? config.worker.pollIntervalMs,
      logger: workerLogger(logger, outages),
      taskList: {
        [DELIVER_WEBHOOK]: deliverWebhookTask({ pool, config, secrets }),
        [PRUNE]: pruneTask({ pool, config, logger }),
        [END_NOTICES]: endNoticesTask({ pool, logger }),
        [OVERDUE_INVOICES]: overdueInvoicesTask({ pool, logger }),
        [EXPORT_JOBS.task]: runExportTask({ pool, logger, limits: config.exportLimits }),
        [IMPORT_JOBS.task]: runImportTask({ pool, logger }),
      },
      // Hourly, at a minute of its own; one run per hour across every worker (graphile-worker's known_crontabs).
      // Every minute: a notice ends, an invoice becomes overdue, at midnight in the organization's time zone.
      parsedCronItems: parseCronItems([
        { task: PRUNE, match: '17 * * * *', options: { backfillPeriod: 0 } },
        { task: END_NOTICES, match: '* * * * *', options: { backfillPeriod: 0 } },
        { task: OVERDUE_INVOICES, match: '* * * * *', options: { backfillPeriod: 0 } },
      ]),
      preset: { plugins: [waitForLivenessMarks(liveness)] },
    });
    // Jobs a dead worker left locked go to the living at once, not in graphile-worker's 4 hours.
    await liveness.recover();
    fanOut = startFanOut(pool, outages);
  } catch (error) {
    await fanOut?.stop();
    await liveness?.close();
    await poolClosing.end();
    throw error;
  }
  const unobserve = observeWorker(pool, events);
  return {
    runner,
    stop() {
      stopping ??= (async () => {
        try {
          await fanOut?.stop();
          await runner.stop();
        } finally {
          unobserve();
          await liveness?.close();
          await poolClosing.end();
        }
      })();
      return stopping;
    },
  };
}
