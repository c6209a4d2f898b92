// The shared counter store behind SharedRateLimiter: PostgreSQL (the service's
// own database) by default, Redis when REDIS_URL is set. If the store fails,
// an in-process counter stands in (rate-limiter-flexible's insurance limiter)
// rather than failing requests. Redis away (at start or later) never stops the
// API: requests are counted in each process until it is back, which the log
// says once each way and /readyz reports as degraded.
//
// Two budgets live in the store: each credential's (key prefix `api`), and each
// client address's for requests without a valid credential (prefix `anon`).
import type { Redis } from 'ioredis';
import { newPool } from '../db/multi-host.js';
import { trackPoolClosing } from '../db/pool-closing.js';
import { transactionPoolingClient } from '../db/transaction-pooling.js';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface RateLimitStoreOptions {
  max: number;
  windowSeconds: number;
  /** Budget per client address of requests without a valid credential, per window. */
  unauthenticatedMax: number;
  databaseUrl: string;
  /** databaseUrl leads to a transaction pooler: rate-limiter-flexible's named statements are dropped. */
  pooled?: boolean;
  redisUrl?: string;
  onError?: (error: Error) => void;
  /** Redis became unreachable (true) or reachable again (false): called on each change only. */
  onRedisAway?: (away: boolean, error?: Error) => void;
}

export interface RateLimitStore {
  limiter: RateLimiterAbstract;
  unauthenticatedLimiter: RateLimiterAbstract;
  /** Another budget in the same store (e.g. failed sign-ins): `points` per `durationSeconds` per key. */
  budget(keyPrefix: string, points: number, durationSeconds: number): RateLimiterAbstract;
  /** Whether the shared store is away and limits are counted in this process meanwhile (Redis only). */
  degraded(): boolean;
  close(): Promise<void>;
}

export async function createRateLimitStore(options: RateLimitStoreOptions): Promise<RateLimitStore> {
  const budget = (keyPrefix: string, points: number, duration = options.windowSeconds) => ({
    keyPrefix,
    points,
    duration,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
  });
  if (options.redisUrl) {
    const redis = await connectRedis(options.redisUrl, options.onRedisAway);
    const inRedis = (keyPrefix: string, points: number, duration?: number) =>
      new RateLimiterRedis({ ...budget(keyPrefix, points, duration), storeClient: redis });
    return {
      limiter: inRedis('api', options.max),
      unauthenticatedLimiter: inRedis('anon', options.unauthenticatedMax),
      budget: inRedis,
      degraded: () => redis.status !== 'ready',
      close: async () => {
        // Closing is not Redis going away: nothing more to report.
        redis.removeAllListeners();
        redis.on('error', () => {});
        if (redis.status === 'ready') await redis.quit();
        else redis.disconnect();
      },
    };
  }
  const pool = newPool(options.databaseUrl, {
    max: 4,
    ...(options.pooled && { Client: transactionPoolingClient() }),
  });
  const closing = trackPoolClosing(pool);
  // An idle connection dropped by the server (restart, shutdown) must not crash the process.
  pool.on('error', (error) => options.onError?.(error));
  const postgres = { storeClient: pool, storeType: 'pool', tableName: 'rate_limits' };
  // The first limiter creates the table and clears its expired rows (every prefix's) hourly.
  const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
    const created: RateLimiterPostgres = new RateLimiterPostgres(
      { ...budget('api', options.max), ...postgres, clearExpiredByTimeout: true },
      (error?: unknown) => (error ? reject(error) : resolve(created)),
    );
  });
  const inPostgres = (keyPrefix: string, points: number, duration?: number) =>
    new RateLimiterPostgres({
      ...budget(keyPrefix, points, duration),
      ...postgres,
      tableCreated: true,
      clearExpiredByTimeout: false,
    });
  return {
    limiter,
    unauthenticatedLimiter: inPostgres('anon', options.unauthenticatedMax),
    budget: inPostgres,
    degraded: () => false,
    close: closing.end,
  };
}

/**
 * A Redis client that never holds a command back (no offline queue: a command
 * while Redis is away fails at once, and the insurance limiter counts it) and
 * reconnects by itself. It reports each change of reachability once, not every
 * failed reconnect.
 */
async function connectRedis(url: string, onAway?: (away: boolean, error?: Error) => void): Promise<Redis> {
  // Loaded only with REDIS_URL: a process without Redis holds none of the client's code.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let away: boolean | undefined;
  const report = (now: boolean, error?: Error) => {
    if (away === now) return;
    // Not reachable from the start counts as a change; reachable from the start does not.
    if (away !== undefined || now) onAway?.(now, error);
    away = now;
  };
  redis.on('ready', () => report(false));
  redis.on('error', (error: Error) => report(true, error));
  redis.on('close', () => report(true));
  return redis;
}
