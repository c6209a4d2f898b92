// npm start: configuration, database (embedded unless DATABASE_URL), migrations,
// first-run demo data (local conveniences only), the background worker (unless WORKER=off), then the HTTP(S)
// server until SIGINT/SIGTERM/SIGHUP, when it stops in order: the HTTP server
// drains, the worker finishes its jobs in flight, the pools close, then PostgreSQL.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { bootstrapDemo, demoBanner } from './bootstrap.js';
import { loadConfigOrExit } from './config.js';
import { checkConnections } from './db/attach.js';
import { applyMigrations } from './db/schema-engine.js';
import { openDatabase, type DatabaseHandle } from './db/server.js';
import { isOperatorProblem } from './db/start-errors.js';
import { drainable, type Drainable } from './drain.js';
import { configureHttpServer } from './http/server-options.js';
import { startWorker, type Worker } from './jobs/worker.js';
import { logLocalConveniences } from './local-conveniences.js';
import { createLogger } from './logger.js';
import { startMetricsServer, type MetricsServer } from './metrics/server.js';
import { createPlatform, type Platform } from './server.js';

/** How long requests in flight at SIGTERM/SIGINT may take to finish; then they are cut off. */
const SHUTDOWN_DRAIN_MS = 8_000;
/** How long the pools may take to close before PostgreSQL is stopped under them. */
const CLOSE_POOLS_MS = 5_000;
/**
 * How long jobs in flight may take to finish (a delivery: WEBHOOK_TIMEOUT_MS at most);
 * graphile-worker then aborts them and releases them for another worker.
 */
const STOP_WORKER_MS = 15_000;
/** Last resort if a step hangs: PostgreSQL's own stop waits 30 s (fast) + 10 s (immediate). */
const HARD_EXIT_MS = SHUTDOWN_DRAIN_MS + STOP_WORKER_MS + CLOSE_POOLS_MS + 45_000;

const config = loadConfigOrExit();
const logger = createLogger(config);

let opening: Promise<DatabaseHandle> | undefined;
let platform: Platform | undefined;
let worker: Worker | undefined;
let server: http.Server | https.Server | undefined;
let requests: Drainable | undefined;
let metrics: MetricsServer | undefined;
let stopping: Promise<void> | undefined;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
function onSignal(signal: NodeJS.Signals): void {
  if (stopping) {
    // A second Ctrl-C: do not wait any longer (PostgreSQL still gets its fast shutdown on exit).
    logger.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  logger.info({ signal }, 'shutting down');
  void stop(0);
}
for (const signal of SIGNALS) process.on(signal, onSignal);

/**
 * The service alone decides what a signal does. Libraries install handlers of their
 * own: Apollo Server's (stopOnTerminationSignals) stops it and then sends the signal
 * again, which would end the process before the pools and PostgreSQL had closed.
 */
function keepOnlyOurSignalHandlers(): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (listener !== onSignal) process.removeListener(signal, listener);
    }
  }
}

try {
  await start();
} catch (error) {
  if (!stopping) {
    reportStartFailure(error);
    await stop(1);
  }
}

async function start(): Promise<void> {
  opening = openDatabase(config, (line) => logger.debug({ postgres: line.trim() }), {
    owner: 'service',
    detached: true,
    notice: (message, fields) => logger.warn(fields, message),
  });
  const database = await opening;
  if (stopping) return;
  if (database.embedded) logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL started');
  else await checkConnections(database);
  // Migrations take a session-level lock: never through a transaction pooler.
  const applied = await applyMigrations(database.directUrl);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
  if (stopping) return;

  platform = await createPlatform(config, database, logger);
  keepOnlyOurSignalHandlers();
  if (stopping) return;
  // Said once the database is ready (a start that fails before says only why).
  logLocalConveniences(config, logger);
  if (config.localConveniences) {
    const demo = await bootstrapDemo(platform.services);
    if (demo) process.stdout.write(demoBanner(demo, config.publicUrl) + '\n');
  }
  if (stopping) return;
  if (config.worker.enabled) {
    // graphile-worker LISTENs and the liveness marks are session advisory locks: the direct connection.
    worker = await startWorker({ config, databaseUrl: database.directUrl, logger });
    logger.info({ concurrency: config.worker.concurrency }, 'worker started');
  }
  if (stopping) return;
  // The API's and the worker's series on one endpoint (src/metrics/).
  if (config.metrics) {
    metrics = await startMetricsServer(config.metrics);
    logger.info({ url: metrics.url }, 'metrics listening');
  }
  if (stopping) return;

  requests = drainable(platform.listener);
  server = config.tls
    ? https.createServer(
        { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile), minVersion: 'TLSv1.3' },
        requests.listener,
      )
    : http.createServer(requests.listener);
  // Timeouts, and the HTTP parser's own errors in the envelope; before listen(), which reads them.
  configureHttpServer(server, config);
  server.once('error', (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use: stop the other process or set PORT`
        : `cannot listen on ${config.host}:${config.port} (${error.code ?? error.message}): check HOST and PORT`;
    console.error(reason);
    void stop(1);
  });
  server.listen(config.port, config.host, () => {
    logger.info({ url: config.publicUrl }, 'listening');
  });
}

/** Problems an operator fixes are one line without a stack; anything else is logged in full. */
function reportStartFailure(error: unknown): void {
  if (isOperatorProblem(error)) console.error(error.message);
  else logger.fatal({ err: error }, 'start-up failed');
}

/** Drain HTTP, close the pools, stop PostgreSQL, release DATA_DIR: in that order, each bounded. */
function stop(exitCode: number): Promise<void> {
  stopping ??= (async () => {
    setTimeout(() => {
      logger.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, HARD_EXIT_MS).unref();
    if (server?.listening && requests) {
      const inFlight = requests.inFlight();
      const { unfinished } = await requests.drain(server, SHUTDOWN_DRAIN_MS);
      if (unfinished) {
        logger.warn({ unfinished, deadlineMs: SHUTDOWN_DRAIN_MS }, 'requests cut off at the shutdown deadline');
      } else {
        logger.info({ inFlight }, 'HTTP server closed');
      }
    }
    await metrics?.close();
    if (worker) {
      const stopped = await bounded(worker.stop(), STOP_WORKER_MS).catch((error: unknown) => {
        logger.error({ err: error }, 'error while stopping the worker');
        return true;
      });
      if (stopped) logger.info('worker stopped');
      else logger.warn({ timeoutMs: STOP_WORKER_MS }, 'worker did not stop in time');
    }
    if (platform) {
      const closed = await bounded(platform.close(), CLOSE_POOLS_MS).catch((error: unknown) => {
        logger.error({ err: error }, 'error while closing');
        return true;
      });
      if (closed) logger.info('connection pools closed');
      else logger.warn({ timeoutMs: CLOSE_POOLS_MS }, 'connection pools did not close in time');
    }
    // Opened, or still opening (a signal during start-up): close it once it is there.
    const database = await opening?.catch(() => undefined);
    if (database) {
      await database.close().catch((error: unknown) => logger.error({ err: error }, 'error stopping PostgreSQL'));
      if (database.embedded) logger.info('embedded PostgreSQL stopped');
    }
    process.exit(exitCode);
  })();
  return stopping;
}

/** true if the promise settled within ms. */
function bounded(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}
