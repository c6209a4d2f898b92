// npm run worker: the background worker alone (no HTTP), against DATABASE_URL or
// the embedded PostgreSQL a running `npm start` owns (started here if none runs).
// Migrates like the service, then runs until SIGINT/SIGTERM/SIGHUP, when it takes
// no new job, lets the jobs in flight finish and closes. Any number of these can
// run beside any number of API processes (WORKER=off there, if wanted).
import 'reflect-metadata';
import { loadConfigOrExit } from '../config.js';
import { attachOrStartDatabase, type AttachedDatabase } from '../db/attach.js';
import { applyMigrations } from '../db/schema-engine.js';
import { isOperatorProblem } from '../db/start-errors.js';
import { logLocalConveniences } from '../local-conveniences.js';
import { createLogger } from '../logger.js';
import { startMetricsServer, type MetricsServer } from '../metrics/server.js';
import { startWorker, type Worker } from './worker.js';

/** Jobs in flight get this long to finish; then the process exits (graphile-worker releases them first). */
const STOP_MS = 20_000;

const config = loadConfigOrExit();
const logger = createLogger(config);
let database: AttachedDatabase | undefined;
let worker: Worker | undefined;
let metrics: MetricsServer | undefined;
let stopping = false;

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    logger.error('worker shutdown did not finish in time: exiting');
    process.exit(1);
  }, STOP_MS).unref();
  try {
    await metrics?.close();
    await worker?.stop();
    if (worker) logger.info('worker stopped');
  } catch (error) {
    logger.error({ err: error }, 'error while stopping the worker');
    code = 1;
  }
  await database?.close().catch((error: unknown) => logger.error({ err: error }, 'error closing the database'));
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    logger.info({ signal }, 'shutting down');
    void stop(0);
  });
}

try {
  database = await attachOrStartDatabase(config);
  const applied = await applyMigrations(database.directUrl);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
  if (!stopping) {
    worker = await startWorker({ config, databaseUrl: database.directUrl, logger });
    logLocalConveniences(config, logger);
    logger.info({ concurrency: config.worker.concurrency }, 'worker started');
    if (config.metrics) {
      metrics = await startMetricsServer(config.metrics);
      logger.info({ url: metrics.url }, 'metrics listening');
    }
  }
} catch (error) {
  if (isOperatorProblem(error)) console.error(error.message);
  else logger.fatal({ err: error }, 'worker start-up failed');
  await stop(1);
}
