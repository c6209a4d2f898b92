// graphile-worker's own schema (graphile_worker.*): its jobs table and add_jobs,
// which the fan-out dispatcher (fan-out.ts) calls to turn queued deliveries into
// jobs. Migrated at start with the Prisma migrations (src/db/schema-engine.ts),
// before any worker runs, by every process that migrates: the service, the
// worker, the CLI and the tests' template database. graphile-worker takes its own lock, so processes
// starting together are safe.
import { Logger, runMigrations } from 'graphile-worker';

/** graphile-worker's logger, quiet: what it says at start-up is not for operators. */
export const quietWorkerLogger = new Logger(() => () => {});

export async function migrateWorkerSchema(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: quietWorkerLogger, maxPoolSize: 1 });
}
