// Recording a job's attempts: one statement, so one round trip and one commit per
// job whatever its size. It writes a log row per attempt and whatever follows from
// them: a retry job per failed event (WEBHOOK_RETRY_BASE_MS x 1, 4, 16, +-10%, or a
// Retry-After up to an hour), and the endpoint's health (410 Gone disables it at
// once; WEBHOOK_DISABLE_AFTER_FAILURES events in a row that failed every attempt
// disable it too; a success starts the count again). A batch that only succeeded
// at a healthy endpoint writes the log rows and nothing else.
import type pg from 'pg';
import type { Config } from '../config.js';
import { newId } from '../ids.js';
import { DELIVER_WEBHOOK, JOB_MAX_ATTEMPTS, MAX_ATTEMPTS, type DeliveryJob } from './delivery-jobs.js';
import type { AttemptResult, HeaderPair } from './webhook-http.js';

/** The longest Retry-After honoured. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

export interface Attempt {
  eventId: string;
  eventType: string;
  /** The request's headers as sent. */
  requestHeaders: HeaderPair[];
  result: AttemptResult;
}

/** The delay before retry number `attempt` (1-based) : base x 4^(attempt-1), +-10%. */
export function backoffMs(baseMs: number, attempt: number, random = Math.random): number {
  return Math.round(baseMs * 4 ** (attempt - 1) * (0.9 + 0.2 * random()));
}

// $14 and $15: each attempt's request and response headers as JSON text; $16 the delivery redelivered.
const LOG_SQL = `insert into "WebhookDelivery" (id, "organizationId", "webhookId", "eventId", "eventType", attempt,
    trigger, status, "statusCode", "durationMs", error, "responseExcerpt", "nextAttemptAt", "requestHeaders",
    "responseHeaders", "redeliveryOf")
  select id, $2, $3, "eventId", "eventType", $4, $5, status, "statusCode", "durationMs", error, excerpt, "nextAttemptAt",
         sent::jsonb, answered::jsonb, $16::text
  from unnest($1::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::int[], $11::text[], $12::text[],
              $13::timestamptz[], $14::text[], $15::text[])
    as a(id, "eventId", "eventType", status, "statusCode", "durationMs", error, excerpt, "nextAttemptAt", sent, answered)`;

/** One retry job per attempt that has a next attempt time, with the next attempt number. */
const RETRY_SQL = `select count(*) from graphile_worker.add_jobs(array(
    select row('${DELIVER_WEBHOOK}',
               json_build_object('eventId', "eventId", 'webhookId', $3::text, 'attempt', $4::int + 1),
               null, "nextAttemptAt", ${JOB_MAX_ATTEMPTS}, null, null, null)::graphile_worker.job_spec
    from unnest($6::text[], $13::timestamptz[]) as a("eventId", "nextAttemptAt")
    where "nextAttemptAt" is not null))`;

// $17 any 410, $18 any success, $19 events that failed their last attempt, $20 the limit, $21 the reason.
const DISABLING = `status = 'enabled' and ($17 or (not $18 and "consecutiveFailures" + $19 >= $20))`;
const HEALTH_SQL = `update "Webhook" set
    "consecutiveFailures" = case when $18 then 0 else "consecutiveFailures" + $19 end,
    status = case when ${DISABLING} then 'disabled' else status end,
    "disabledReason" = case when ${DISABLING} then $21 else "disabledReason" end,
    "disabledAt" = case when ${DISABLING} then now() else "disabledAt" end,
    "updatedAt" = case when ${DISABLING} then now() else "updatedAt" end
  where id = $3 and ($17 or $19 > 0 or ($18 and "consecutiveFailures" <> 0))`;

export async function recordAttempts(
  pool: pg.Pool,
  settings: Pick<Config['webhooks'], 'retryBaseMs' | 'disableAfterFailures'>,
  job: DeliveryJob,
  webhook: { organizationId: string },
  attempts: Attempt[],
): Promise<void> {
  const counted = job.trigger !== 'test';
  const retries = job.trigger === 'event' && job.attempt < MAX_ATTEMPTS;
  const gone = attempts.some((attempt) => attempt.result.statusCode === 410);
  const failed = attempts.filter((attempt) => !attempt.result.ok && attempt.result.statusCode !== 410);
  const succeeded = counted && attempts.some((attempt) => attempt.result.ok);
  const exhausted = job.trigger === 'event' && job.attempt === MAX_ATTEMPTS ? failed.length : 0;

  const nextAttemptAt = (result: AttemptResult): Date | null => {
    if (!retries || result.ok || result.statusCode === 410) return null;
    const backoff = backoffMs(settings.retryBaseMs, job.attempt);
    const asked = result.retryAfterMs === null ? 0 : Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS);
    return new Date(Date.now() + Math.max(backoff, asked));
  };
  const column = <T>(pick: (attempt: Attempt) => T) => attempts.map(pick);
  const values: unknown[] = [
    column(() => newId('webhookDelivery')),
    webhook.organizationId,
    job.webhookId,
    job.attempt,
    job.trigger,
    column((a) => a.eventId),
    column((a) => a.eventType),
    column((a) => (a.result.ok ? 'succeeded' : 'failed')),
    column((a) => a.result.statusCode),
    column((a) => a.result.durationMs),
    column((a) => a.result.error),
    column((a) => (a.result.excerpt === null ? null : a.result.excerpt.replaceAll('\u0000', ''))),
    column((a) => nextAttemptAt(a.result)),
    column((a) => JSON.stringify(a.requestHeaders)),
    column((a) => (a.result.headers ? JSON.stringify(a.result.headers) : null)),
    job.redeliveryOf ?? null,
  ];

  // Only the parts needed: add_jobs notifies, and a notifying commit waits in line with every other.
  const retrying = retries && failed.length > 0;
  const health = gone || exhausted > 0 || succeeded;
  const parts = [`logged as (${LOG_SQL})`];
  if (retrying) parts.push(`retried as (${RETRY_SQL})`);
  if (health) {
    parts.push(`health as (${HEALTH_SQL})`);
    values.push(
      gone,
      succeeded,
      exhausted,
      settings.disableAfterFailures,
      gone
        ? 'The endpoint answered 410 Gone'
        : `${settings.disableAfterFailures} events in a row failed all ${MAX_ATTEMPTS} attempts`,
    );
  }
  await pool.query({
    name: `webhook_attempts${retrying ? '_retried' : ''}${health ? '_health' : ''}`,
    text: `with ${parts.join(', ')} select ${retrying ? '(select * from retried)' : '1'}`,
    values,
  });
}
