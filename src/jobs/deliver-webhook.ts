// The deliver_webhook task: one attempt of a few events to one webhook. The fan-out
// dispatcher (fan-out.ts) adds first attempts in batches ({webhookId, eventIds}:
// up to DELIVERY_BATCH events of one endpoint per job, so a busy endpoint costs
// one job, one read and one write per batch instead of per event); retries, manual
// redeliveries and tests are jobs of one event ({webhookId, eventId}). Every event
// is its own signed POST, sent side by side. Each attempt is recorded in the
// deliveries log and the next one scheduled by this task (attempts.ts), so every
// attempt is logged and the backoff is ours.
import type { JobHelpers, Task } from 'graphile-worker';
import type pg from 'pg';
import type { Config } from '../config.js';
import { deliveryBody } from '../events/delivery-body.js';
import { eventEnvelope, type StoredEvent } from '../events/envelope.js';
import { recordAttempts, type Attempt } from './attempts.js';
import { parseDeliveryJob, type DeliveryJob } from './delivery-jobs.js';
import { webhookDeliveries, webhookDeliveryLag } from '../metrics/registry.js';
import { postSigned, signedHeaders, type HeaderPair, type SignedHeaders } from './webhook-http.js';
import type { WebhookSecrets } from './webhook-secrets.js';

export interface DeliveryDependencies {
  pool: pg.Pool;
  config: Pick<Config, 'localConveniences' | 'webhooks'>;
  secrets: WebhookSecrets;
}

interface Webhook {
  organizationId: string;
  url: string;
  status: string;
  secretEncrypted: string;
  /** The secret the last rotation replaced, while its grace period lasts. */
  previousSecretEncrypted: string | null;
  /** What its deliveries carry: an event's data as a holder of these scopes sees it. */
  scopes: string[];
}

/** An event as json_agg gives it: its time as an ISO 8601 string. */
type EventRow = StoredEvent & { createdAt: string };

export function deliverWebhookTask(deps: DeliveryDependencies): Task {
  const secrets = new Map<string, string>();
  // Cached by webhook and ciphertext: a ciphertext opens only for its own webhook.
  const secretOf = (webhookId: string, sealed: string) => {
    const cacheKey = `${webhookId}.${sealed}`;
    let secret = secrets.get(cacheKey);
    if (secret === undefined) {
      secret = deps.secrets.open(webhookId, sealed);
      if (secrets.size > 10_000) secrets.clear();
      secrets.set(cacheKey, secret);
    }
    return secret;
  };

  return async (rawPayload: unknown, _helpers: JobHelpers) => {
    const job = parseDeliveryJob(rawPayload);
    if (!job) return; // Not ours to retry: nothing can make it valid.
    const { rows } = await deps.pool.query<Webhook & { events: EventRow[] | null }>({
      name: 'webhook_delivery_targets',
      text: `select w."organizationId", w.url, w.status, w."secretEncrypted", w.scopes,
                    case when w."previousSecretExpiresAt" > now() then w."previousSecretEncrypted" end
                      as "previousSecretEncrypted",
                    (select json_agg(json_build_object('id', e.id, 'type', e.type, 'createdAt', e."createdAt",
                                                       'data', e.data, 'actorType', e."actorType",
                                                       'actorId', e."actorId")
                               order by e.id)
                     from "Event" e where e.id = any($2::text[]) and e."organizationId" = w."organizationId"
                       and not ($3 and exists (select 1 from "WebhookDelivery" d
                                               where d."webhookId" = w.id and d."eventId" = e.id
                                                 and d.status = 'succeeded'))) as events
             from "Webhook" w where w.id = $1`,
      // A scheduled retry of an event that got through meanwhile (a redelivery asked for) is not sent.
      values: [job.webhookId, job.eventIds, job.trigger === 'event' && job.attempt > 1],
    });
    const webhook = rows[0];
    // Deleted webhook, pruned events, or disabled since: nothing to send (tests go to disabled ones too).
    if (!webhook?.events || (webhook.status !== 'enabled' && job.trigger !== 'test')) return;

    const secret = secretOf(job.webhookId, webhook.secretEncrypted);
    const previous = webhook.previousSecretEncrypted
      ? secretOf(job.webhookId, webhook.previousSecretEncrypted)
      : undefined;
    const scopes = new Set(webhook.scopes);
    const sentAt = Date.now();
    const timestamp = Math.floor(sentAt / 1000);
    const attempts = await Promise.all(
      webhook.events.map(async (event): Promise<Attempt> => {
        // The envelope is serialised once; these exact bytes are signed and sent.
        const body = JSON.stringify(deliveryBody(eventEnvelope(event), scopes));
        const headers = signedHeaders(secret, event.id, body, timestamp, previous);
        const result = await postSigned(webhook.url, body, headers, {
          timeoutMs: deps.config.webhooks.timeoutMs,
          // Read per delivery: a request through a proxy may have turned local conveniences off.
          strict: !deps.config.localConveniences,
        });
        return { eventId: event.id, eventType: event.type, requestHeaders: sentHeaders(headers, body), result };
      }),
    );
    await recordAttempts(deps.pool, deps.config.webhooks, job, webhook, attempts);
    countAttempts(job, webhook.events, attempts, sentAt);
  };
}

/** The request's headers as the deliveries log keeps them: those signed, and the body's length. */
function sentHeaders(headers: SignedHeaders, body: string): HeaderPair[] {
  return [
    ...Object.entries(headers).map(([name, value]) => ({ name, value })),
    { name: 'content-length', value: String(Buffer.byteLength(body)) },
  ];
}

/** Counted once recorded: the outcomes, and for first attempts of events the lag since the event's commit. */
function countAttempts(job: DeliveryJob, events: EventRow[], attempts: Attempt[], sentAt: number): void {
  for (const attempt of attempts) {
    webhookDeliveries.inc({ outcome: attempt.result.ok ? 'succeeded' : 'failed', trigger: job.trigger });
  }
  if (job.trigger !== 'event' || job.attempt !== 1) return;
  for (const event of events) webhookDeliveryLag.observe(Math.max(0, sentAt - Date.parse(event.createdAt)) / 1000);
}
