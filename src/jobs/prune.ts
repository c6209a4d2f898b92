// The hourly clean-up (crontab in worker.ts): events older than
// EVENT_RETENTION_DAYS, delivery logs older than WEBHOOK_DELIVERY_RETENTION_DAYS,
// Idempotency-Keys past their 24 hours, and OAuth codes, tokens and sign-in
// sessions a day after they expired, webhook secrets whose rotation grace
// period is over, changes older than CHANGE_RETENTION_DAYS (recording how far, for 410 CURSOR_EXPIRED), exports older than EXPORT_RETENTION_DAYS (their file first), and imports that ended more than IMPORT_RETENTION_DAYS ago. Deletes in batches so that no statement holds many locks or runs long.
import type { Task } from 'graphile-worker';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export const PRUNE = 'prune';
const BATCH = 5_000;
/** Idempotency-Keys are kept 24 hours (docs/decisions.md, "REST"). */
const IDEMPOTENCY_KEEP_HOURS = 24;

export interface PruneDependencies {
  pool: pg.Pool;
  config: Pick<
    Config,
    'eventRetentionDays' | 'changeRetentionDays' | 'exportRetentionDays' | 'importRetentionDays' | 'webhooks'
  >;
  logger: Logger;
}

export interface Pruned {
  events: number;
  deliveries: number;
  idempotencyKeys: number;
  /** Authorization codes, access and refresh tokens, sessions. */
  oauth: number;
  /** Replaced webhook secrets past their grace period (they no longer sign). */
  webhookSecrets: number;
  /** Exports past EXPORT_RETENTION_DAYS, with their files. */
  exports: number;
  /** Changes of the feed past CHANGE_RETENTION_DAYS. */
  changes: number;
  /** Imports that ended (completed or failed) more than IMPORT_RETENTION_DAYS ago. */
  imports: number;
}

/** Kept a day past expiry, so a late reuse of a code or refresh token is still recognised (and revokes its grant). */
const OAUTH_KEEP_EXPIRED_HOURS = 24;

export async function prune({ pool, config }: Omit<PruneDependencies, 'logger'>): Promise<Pruned> {
  /** Deletes the rows whose `column` is more than `hours` in the past, BATCH at a time; answers how many. */
  const olderThan = async (table: string, column: 'createdAt' | 'expiresAt', hours: number) => {
    let total = 0;
    for (;;) {
      const { rowCount } = await pool.query(
        `delete from "${table}" where ctid = any (array(
           select ctid from "${table}" where "${column}" < now() - make_interval(hours => $1) limit ${BATCH}))`,
        [hours],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) return total;
    }
  };
  let oauth = 0;
  for (const table of ['OAuthCode', 'OAuthAccessToken', 'OAuthRefreshToken', 'Session']) {
    oauth += await olderThan(table, 'expiresAt', OAUTH_KEEP_EXPIRED_HOURS);
  }
  const expiredSecrets = await pool.query(
    `update "Webhook" set "previousSecretEncrypted" = null, "previousSecretExpiresAt" = null
     where "previousSecretExpiresAt" <= now()`,
  );
  return {
    exports: await expiredExports(pool, config.exportRetentionDays),
    imports: await expiredImports(pool, config.importRetentionDays),
    oauth,
    webhookSecrets: expiredSecrets.rowCount ?? 0,
    events: await olderThan('Event', 'createdAt', config.eventRetentionDays * 24),
    changes: await expiredChanges(pool, config.changeRetentionDays),
    deliveries: await olderThan('WebhookDelivery', 'createdAt', config.webhooks.deliveryRetentionDays * 24),
    idempotencyKeys: await olderThan('IdempotencyKey', 'createdAt', IDEMPOTENCY_KEEP_HOURS),
  };
}

/**
 * Deletes the feed's changes past retention, BATCH at a time, and raises each
 * organization's horizon to the highest position deleted: a cursor below it may
 * have missed a change (410 CURSOR_EXPIRED). Unnumbered rows are left to the sequencer.
 */
async function expiredChanges(pool: pg.Pool, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await pool.query<{ deleted: string }>(
      `with gone as (
         delete from "Change" where seq = any (array(
           select seq from "Change" where "createdAt" < now() - make_interval(days => $1) and position is not null
           limit ${BATCH}))
         returning "organizationId", position),
       raised as (
         insert into "ChangeHorizon" ("organizationId", "prunedThrough")
         select "organizationId", max(position) from gone group by "organizationId"
         on conflict ("organizationId") do update
           set "prunedThrough" = greatest("ChangeHorizon"."prunedThrough", excluded."prunedThrough"))
       select count(*)::text as deleted from gone`,
      [days],
    );
    const deleted = Number(rows[0]!.deleted);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** Deletes exports past retention: their chunks first, in batches (a file may be many), then the exports. */
async function expiredExports(pool: pg.Pool, days: number): Promise<number> {
  const expired = `select id from "Export" where "createdAt" < now() - make_interval(days => $1)`;
  for (;;) {
    const { rowCount } = await pool.query(
      `delete from "ExportChunk" where ctid = any (array(
         select ctid from "ExportChunk" where "exportId" in (${expired}) limit ${BATCH}))`,
      [days],
    );
    if ((rowCount ?? 0) < BATCH) break;
  }
  const { rowCount } = await pool.query(`delete from "Export" where id in (${expired})`, [days]);
  return rowCount ?? 0;
}

/**
 * Deletes imports that ended (completed or failed) more than `days` ago, BATCH at a
 * time; a queued or running one stays, however old. Their files went when they
 * ended (a chunk left by any other path goes with its import: FK cascade).
 * createdAt precedes completedAt, so its index narrows the scan.
 */
async function expiredImports(pool: pg.Pool, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `delete from "Import" where id = any (array(
         select id from "Import" where "createdAt" < now() - make_interval(days => $1)
           and status in ('completed', 'failed') and "completedAt" < now() - make_interval(days => $1)
         limit ${BATCH}))`,
      [days],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return total;
  }
}

export function pruneTask(deps: PruneDependencies): Task {
  return async () => {
    const pruned = await prune(deps);
    if (Object.values(pruned).some((count) => count > 0)) deps.logger.info({ pruned }, 'pruned old rows');
  };
}
