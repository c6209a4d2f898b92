// The worker's connections, made to survive the database going away under them.
// graphile-worker retries a statement whose error code it knows as passing
// (57P03 cannot_connect_now among them: from 3 s, backing off) and gives up at
// once on any other. Its job completion is not awaited: a connection lost while a
// job completes (PostgreSQL restarted, a failover) would reject unhandled and end
// the process, leaving the job locked. So an error that means "the database is
// not there" (src/db/unavailable.ts) reaches graphile-worker as 57P03, with the
// original as its cause: the completion waits for the (new) primary and lands.
import pg from 'pg';
import { databaseTroubleOf } from '../db/unavailable.js';

// graphile-worker's RETRYABLE_ERROR_CODES (lib.ts): left as they are.
const ALREADY_RETRIED = new Set(['40001', '40P01', '57P03', 'EHOSTUNREACH', 'ETIMEDOUT']);

export class DatabaseAwayError extends Error {
  readonly code = '57P03';
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = 'DatabaseAwayError';
  }
}

/** `error` as graphile-worker should see it: retried when the database is away. */
export function retryableByWorker(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && ALREADY_RETRIED.has(code)) return error;
  return databaseTroubleOf(error) === 'unreachable' ? new DatabaseAwayError(error) : error;
}

type Callback = (error: Error | null, client?: pg.Client) => void;

/**
 * node-postgres' Client, with connection and query errors passed through
 * retryableByWorker until `stopping()` says the worker is stopping: then an error
 * is left as it is, so graphile-worker's stop gives up on a database that is gone
 * instead of retrying its last statements until the shutdown's deadline.
 */
export function workerClient(stopping: () => boolean): typeof pg.Client {
  const passOn = (error: unknown) => (stopping() ? error : retryableByWorker(error));
  return class WorkerClient extends pg.Client {
    _connect(callback: Callback): void {
      const connect = (pg.Client.prototype as unknown as { _connect(cb: Callback): void })._connect;
      connect.call(this, (error, client) => callback(error && (passOn(error) as Error), client));
    }

    // graphile-worker and the tasks use the promise form; streams (submittables) pass through.
    query(...args: unknown[]): never {
      const result = (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          throw passOn(error);
        }) as never;
      }
      return result as never;
    }
  };
}
