// The hourly clean-up (crontab in worker.ts): events older than
// EVENT_RETENTION_DAYS, delivery logs older than WEBHOOK_DELIVERY_RETENTION_DAYS,
// Idempotency-Keys past their 24 hours, and OAuth codes, tokens and sign-in
// sessions a day after they expired. Deletes in batches so that no
// statement holds many locks or runs long.
import type { Task } from 'graphile-worker';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export const PRUNE = 'prune';
const BATCH = 5_000;
/** DECISIONS.md: Idempotency-Keys are kept 24 hours. */
const IDEMPOTENCY_KEEP_HOURS = 24;

export interface PruneDependencies {
  pool: pg.Pool;
  config: Pick<Config, 'eventRetentionDays' | 'webhooks'>;
  logger: Logger;
}

export interface Pruned {
  events: number;
  deliveries: number;
  idempotencyKeys: number;
  /** Authorization codes, access and refresh tokens, sessions. */
  oauth: number;
}

/** Kept a day past expiry, so a late reuse of a code or refresh token is still recognised (and revokes its grant). */
const OAUTH_KEEP_EXPIRED_HOURS = 24;

export async function prune({ pool, config }: Omit<PruneDependencies, 'logger'>): Promise<Pruned> {
  const inBatches = async (table: string, olderThanHours: number) => {
    let total = 0;
    for (;;) {
      const { rowCount } = await pool.query(
        `delete from "${table}" where ctid = any (array(
           select ctid from "${table}" where "createdAt" < now() - make_interval(hours => $1) limit ${BATCH}))`,
        [olderThanHours],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) return total;
    }
  };
  const expired = async (table: string) => {
    let total = 0;
    for (;;) {
      const { rowCount } = await pool.query(
        `delete from "${table}" where ctid = any (array(
           select ctid from "${table}" where "expiresAt" < now() - make_interval(hours => $1) limit ${BATCH}))`,
        [OAUTH_KEEP_EXPIRED_HOURS],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) return total;
    }
  };
  let oauth = 0;
  for (const table of ['OAuthCode', 'OAuthAccessToken', 'OAuthRefreshToken', 'Session']) oauth += await expired(table);
  return {
    oauth,
    events: await inBatches('Event', config.eventRetentionDays * 24),
    deliveries: await inBatches('WebhookDelivery', config.webhooks.deliveryRetentionDays * 24),
    idempotencyKeys: await inBatches('IdempotencyKey', IDEMPOTENCY_KEEP_HOURS),
  };
}

export function pruneTask(deps: PruneDependencies): Task {
  return async () => {
    const pruned = await prune(deps);
    if (pruned.events || pruned.deliveries || pruned.idempotencyKeys || pruned.oauth)
      deps.logger.info({ pruned }, 'pruned old rows');
  };
}
