// The shared counter store behind SharedRateLimiter: PostgreSQL (the service's
// own database) by default, Redis when REDIS_URL is set. If the store fails,
// an in-process counter stands in (rate-limiter-flexible's insurance limiter)
// rather than failing requests.
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
  databaseUrl: string;
  redisUrl?: string;
  onError?: (error: Error) => void;
}

export interface RateLimitStore {
  limiter: RateLimiterAbstract;
  close(): Promise<void>;
}

export async function createRateLimitStore(options: RateLimitStoreOptions): Promise<RateLimitStore> {
  const common = {
    keyPrefix: 'api',
    points: options.max,
    duration: options.windowSeconds,
    insuranceLimiter: new RateLimiterMemory({ points: options.max, duration: options.windowSeconds }),
  };
  if (options.redisUrl) {
    const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on('error', (error: Error) => options.onError?.(error));
    await new Promise<void>((resolve, reject) => {
      redis.once('ready', resolve);
      redis.once('error', reject);
    });
    return {
      limiter: new RateLimiterRedis({ ...common, storeClient: redis }),
      close: async () => void (await redis.quit()),
    };
  }
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
  // An idle connection dropped by the server (restart, shutdown) must not crash the process.
  pool.on('error', (error) => options.onError?.(error));
  const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
    const created: RateLimiterPostgres = new RateLimiterPostgres(
      { ...common, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', clearExpiredByTimeout: true },
      (error?: unknown) => (error ? reject(error) : resolve(created)),
    );
  });
  return { limiter, close: () => pool.end() };
}
