// What a deliver_webhook job carries, shared by those who add such jobs (the
// fan-out dispatcher, the webhook service, the attempts' retries) and the task.
import { z } from 'zod';

export const DELIVER_WEBHOOK = 'deliver_webhook';
/** The first attempt and three retries. */
export const MAX_ATTEMPTS = 4;
/** graphile-worker's own retries: only for a task that failed to record its attempts (database trouble). */
export const JOB_MAX_ATTEMPTS = 5;
/** The most events of one endpoint in one job: no more than its connections (webhook-http.ts). */
export const DELIVERY_BATCH = 50;

export const TRIGGERS = ['event', 'manual', 'test'] as const;
export type DeliveryTrigger = (typeof TRIGGERS)[number];

const payloadSchema = z
  .object({
    webhookId: z.string(),
    eventId: z.string().optional(),
    eventIds: z.array(z.string()).min(1).max(DELIVERY_BATCH).optional(),
    attempt: z.int().min(1).max(MAX_ATTEMPTS).default(1),
    trigger: z.enum(TRIGGERS).default('event'),
    /** A retry or redelivery asked for: the logged delivery whose event it sends again. */
    redeliveryOf: z.string().optional(),
  })
  .refine((job) => (job.eventId === undefined) !== (job.eventIds === undefined));

export type DeliveryPayload = z.input<typeof payloadSchema>;

export interface DeliveryJob {
  webhookId: string;
  eventIds: string[];
  attempt: number;
  trigger: DeliveryTrigger;
  redeliveryOf?: string;
}

/** The SQL that adds a one-event delivery job ($1 the payload, $2 when), for callers inside a transaction. */
export const ADD_DELIVERY_JOB_SQL = `select graphile_worker.add_job('${DELIVER_WEBHOOK}', $1::json, run_at => $2::timestamptz, max_attempts => ${JOB_MAX_ATTEMPTS})`;

export function parseDeliveryJob(raw: unknown): DeliveryJob | undefined {
  const parsed = payloadSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { webhookId, eventId, eventIds, attempt, trigger, redeliveryOf } = parsed.data;
  return { webhookId, eventIds: eventIds ?? [eventId!], attempt, trigger, ...(redeliveryOf && { redeliveryOf }) };
}
