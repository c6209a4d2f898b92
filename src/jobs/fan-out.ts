// The fan-out dispatcher: moves the deliveries the trigger on "Event" queued in
// "WebhookFanout" (in each change's own transaction, so none is lost) to
// graphile-worker as deliver_webhook jobs, in batches of one endpoint's events. The trigger cannot call
// add_job itself: add_job sends a NOTIFY, and PostgreSQL serialises the commits of
// notifying transactions, so every create in a subscribed organization would wait
// in one line (README, Performance). Here there is one NOTIFY per batch. Any number
// of workers may dispatch at once: rows are claimed with SKIP LOCKED, and a batch
// moves in one statement, so a worker dying mid-batch leaves the rows in place.
import type pg from 'pg';
import type { OutageLog } from '../outage-log.js';
import { DELIVER_WEBHOOK, DELIVERY_BATCH, JOB_MAX_ATTEMPTS } from './delivery-jobs.js';

/** How often an idle dispatcher looks for new rows: the delay it adds to a delivery. */
const DISPATCH_INTERVAL_MS = 50;
const BATCH = 500;

// Claimed rows become one job per endpoint and DELIVERY_BATCH events, oldest first.
const DISPATCH_SQL = `with claimed as (
    delete from "WebhookFanout" where id in (
      select id from "WebhookFanout" order by id limit $1 for update skip locked)
    returning "eventId", "webhookId"
  ), chunked as (
    select "webhookId", "eventId",
           (row_number() over (partition by "webhookId" order by "eventId") - 1) / ${DELIVERY_BATCH} as chunk
    from claimed
  ), jobs as (
    select row('${DELIVER_WEBHOOK}',
               json_build_object('webhookId', "webhookId", 'eventIds', array_agg("eventId" order by "eventId")),
               null, null, ${JOB_MAX_ATTEMPTS}, null, null, null)::graphile_worker.job_spec as spec
    from chunked group by "webhookId", chunk
  )
  select (select count(*) from claimed)::int as n,
         (select count(*) from graphile_worker.add_jobs(array(select spec from jobs)))::int as added
  where exists (select 1 from claimed)`;

export interface FanOutDispatcher {
  stop(): Promise<void>;
}

/** `outages` takes the dispatcher's failures while the database is away, and hears each success. */
export function startFanOut(pool: pg.Pool, outages: OutageLog): FanOutDispatcher {
  let running = true;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (running) {
      try {
        const { rows } = await pool.query<{ n: number }>({
          name: 'webhook_fan_out',
          text: DISPATCH_SQL,
          values: [BATCH],
        });
        outages.passed();
        if ((rows[0]?.n ?? 0) === BATCH) continue; // more waiting: no pause
      } catch (error) {
        outages.failed('webhook fan-out dispatch failed; retrying', { error: (error as Error).message });
      }
      if (running) await pause(DISPATCH_INTERVAL_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
