// The shared counter store behind SharedRateLimiter: PostgreSQL (the service's
// own database) by default, Redis when REDIS_URL is set. If the store fails,
// an in-process counter stands in (rate-limiter-flexible's insurance limiter)
// rather than failing requests.
//
// Two budgets live in the store: each credential's (key prefix `api`), and each
// client address's for requests without a valid credential (prefix `anon`).
import { Redis } from 'ioredis';
import pg from 'pg';
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
  redisUrl?: string;
  onError?: (error: Error) => void;
}

export interface RateLimitStore {
  limiter: RateLimiterAbstract;
  unauthenticatedLimiter: RateLimiterAbstract;
  /** Another budget in the same store (e.g. failed sign-ins): `points` per `durationSeconds` per key. */
  budget(keyPrefix: string, points: number, durationSeconds: number): RateLimiterAbstract;
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
    const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on('error', (error: Error) => options.onError?.(error));
    await new Promise<void>((resolve, reject) => {
      redis.once('ready', resolve);
      redis.once('error', reject);
    });
    const inRedis = (keyPrefix: string, points: number, duration?: number) =>
      new RateLimiterRedis({ ...budget(keyPrefix, points, duration), storeClient: redis });
    return {
      limiter: inRedis('api', options.max),
      unauthenticatedLimiter: inRedis('anon', options.unauthenticatedMax),
      budget: inRedis,
      close: async () => void (await redis.quit()),
    };
  }
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
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
    close: () => pool.end(),
  };
}
