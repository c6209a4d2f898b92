// The deliver_webhook task: one attempt of one event to one webhook. The fan-out
// dispatcher (fan-out.ts) adds the first job ({eventId, webhookId}); this task records
// each attempt in the deliveries log and schedules the next one itself (so every
// attempt is logged and the backoff is ours: WEBHOOK_RETRY_BASE_MS x 1, 4, 16,
// +-10%, or a Retry-After up to an hour), and keeps the endpoint's health: 410
// Gone disables it at once, WEBHOOK_DISABLE_AFTER_FAILURES events in a row that
// failed every attempt disable it too.
import type { JobHelpers, Task } from 'graphile-worker';
import type pg from 'pg';
import { z } from 'zod';
import { newId } from '../ids.js';
import type { Config } from '../config.js';
import { postSigned, signedHeaders, type AttemptResult } from './webhook-http.js';
import type { SecretBox } from './webhook-secrets.js';

export const DELIVER_WEBHOOK = 'deliver_webhook';
/** The first attempt and three retries. */
export const MAX_ATTEMPTS = 4;
/** The longest Retry-After honoured. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;
/** graphile-worker's own retries: only for a task that failed to record its attempt (database trouble). */
export const JOB_MAX_ATTEMPTS = 5;

export const TRIGGERS = ['event', 'manual', 'test'] as const;
export type DeliveryTrigger = (typeof TRIGGERS)[number];

const payloadSchema = z.object({
  eventId: z.string(),
  webhookId: z.string(),
  attempt: z.int().min(1).max(MAX_ATTEMPTS).default(1),
  trigger: z.enum(TRIGGERS).default('event'),
});

export type DeliveryPayload = z.input<typeof payloadSchema>;

export interface DeliveryDependencies {
  pool: pg.Pool;
  config: Pick<Config, 'isProduction' | 'webhooks'>;
  secrets: SecretBox;
}

interface Target {
  organizationId: string;
  url: string;
  status: string;
  secretEncrypted: string;
  eventType: string;
  createdAt: Date;
  data: unknown;
}

/** The delay before retry number `attempt` (1-based) : base x 4^(attempt-1), +-10%. */
export function backoffMs(baseMs: number, attempt: number, random = Math.random): number {
  return Math.round(baseMs * 4 ** (attempt - 1) * (0.9 + 0.2 * random()));
}

/** The SQL that adds a delivery job, for callers inside a transaction. */
export const ADD_DELIVERY_JOB_SQL = `select graphile_worker.add_job('${DELIVER_WEBHOOK}', $1::json, run_at => $2::timestamptz, max_attempts => ${JOB_MAX_ATTEMPTS})`;

export function deliverWebhookTask(deps: DeliveryDependencies): Task {
  const strict = deps.config.isProduction;
  const secrets = new Map<string, string>();
  const secretOf = (sealed: string) => {
    let secret = secrets.get(sealed);
    if (secret === undefined) {
      secret = deps.secrets.open(sealed);
      if (secrets.size > 10_000) secrets.clear();
      secrets.set(sealed, secret);
    }
    return secret;
  };

  return async (rawPayload: unknown, _helpers: JobHelpers) => {
    const parsed = payloadSchema.safeParse(rawPayload);
    if (!parsed.success) return; // Not ours to retry: nothing can make it valid.
    const job = parsed.data;
    const { rows } = await deps.pool.query<Target>({
      name: 'webhook_delivery_target',
      text: `select w."organizationId", w.url, w.status, w."secretEncrypted",
                    e.type as "eventType", e."createdAt", e.data
             from "Webhook" w join "Event" e on e.id = $2 and e."organizationId" = w."organizationId"
             where w.id = $1`,
      values: [job.webhookId, job.eventId],
    });
    const target = rows[0];
    // Deleted webhook, pruned event, or disabled since: nothing to send (tests go to disabled ones too).
    if (!target || (target.status !== 'enabled' && job.trigger !== 'test')) return;

    // The envelope is serialised once; these exact bytes are signed and sent.
    const body = JSON.stringify({
      id: job.eventId,
      type: target.eventType,
      created: Math.floor(target.createdAt.getTime() / 1000),
      data: target.data,
    });
    const headers = signedHeaders(secretOf(target.secretEncrypted), job.eventId, body, Math.floor(Date.now() / 1000));
    const result = await postSigned(target.url, body, headers, { timeoutMs: deps.config.webhooks.timeoutMs, strict });
    await record(deps, job, target, result);
  };
}

async function record(
  deps: DeliveryDependencies,
  job: z.output<typeof payloadSchema>,
  target: Target,
  result: AttemptResult,
): Promise<void> {
  const { retryBaseMs, disableAfterFailures } = deps.config.webhooks;
  const gone = result.statusCode === 410;
  const retrying = !result.ok && !gone && job.trigger === 'event' && job.attempt < MAX_ATTEMPTS;
  const exhausted = !result.ok && !gone && job.trigger === 'event' && job.attempt === MAX_ATTEMPTS;
  let nextAttemptAt: Date | null = null;
  if (retrying) {
    const backoff = backoffMs(retryBaseMs, job.attempt);
    const asked = result.retryAfterMs === null ? 0 : Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS);
    nextAttemptAt = new Date(Date.now() + Math.max(backoff, asked));
  }

  // One statement, so one round trip and one commit per attempt: the log row, and
  // whichever follows from the attempt (the next attempt's job, the endpoint's health).
  const values: unknown[] = [
    newId('webhookDelivery'),
    target.organizationId,
    job.webhookId,
    job.eventId,
    target.eventType,
    job.attempt,
    job.trigger,
    result.ok ? 'succeeded' : 'failed',
    result.statusCode,
    result.durationMs,
    result.error,
    result.excerpt === null ? null : result.excerpt.replaceAll('\u0000', ''),
    nextAttemptAt,
  ];
  const logged = `with logged as (
      insert into "WebhookDelivery" (id, "organizationId", "webhookId", "eventId", "eventType", attempt, trigger,
        status, "statusCode", "durationMs", error, "responseExcerpt", "nextAttemptAt")
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
    )`;
  if (retrying) {
    await deps.pool.query({
      name: 'webhook_attempt_retry',
      text: `${logged} select graphile_worker.add_job('${DELIVER_WEBHOOK}', $14::json, run_at => $13::timestamptz,
               max_attempts => ${JOB_MAX_ATTEMPTS})`,
      values: [...values, JSON.stringify({ eventId: job.eventId, webhookId: job.webhookId, attempt: job.attempt + 1 })],
    });
  } else if (gone) {
    await deps.pool.query({
      name: 'webhook_attempt_gone',
      text: `${logged} ${DISABLE_SQL}`,
      values: [...values, 'The endpoint answered 410 Gone'],
    });
  } else if (exhausted) {
    // One more event in a row failed every attempt: at the limit, the endpoint is disabled.
    await deps.pool.query({
      name: 'webhook_attempt_exhausted',
      text: `${logged} update "Webhook" set
               "consecutiveFailures" = "consecutiveFailures" + 1,
               status = case when "consecutiveFailures" + 1 >= $14 then 'disabled' else status end,
               "disabledReason" = case when status = 'enabled' and "consecutiveFailures" + 1 >= $14
                 then $15 else "disabledReason" end,
               "disabledAt" = case when status = 'enabled' and "consecutiveFailures" + 1 >= $14
                 then now() else "disabledAt" end,
               "updatedAt" = case when status = 'enabled' and "consecutiveFailures" + 1 >= $14
                 then now() else "updatedAt" end
             where id = $3`,
      values: [
        ...values,
        disableAfterFailures,
        `${disableAfterFailures} events in a row failed all ${MAX_ATTEMPTS} attempts`,
      ],
    });
  } else if (result.ok && job.trigger !== 'test') {
    await deps.pool.query({
      name: 'webhook_attempt_succeeded',
      text: `${logged} update "Webhook" set "consecutiveFailures" = 0 where id = $3 and "consecutiveFailures" <> 0`,
      values,
    });
  } else {
    await deps.pool.query({ name: 'webhook_attempt_logged', text: `${logged} select 1`, values });
  }
}

/** Disables webhook $3 with the reason $14, unless it is disabled already. */
const DISABLE_SQL = `update "Webhook" set status = 'disabled', "disabledReason" = $14, "disabledAt" = now(),
  "updatedAt" = now() where id = $3 and status = 'enabled'`;
