// What a worker adds to the process's metrics (src/metrics/): its pool, the queue
// and fan-out backlog read at each scrape, and each job's outcome as
// graphile-worker reports it.
import type { EventEmitter } from 'node:events';
import type { Job } from 'graphile-worker';
import type pg from 'pg';
import { workerJobRuns } from '../metrics/registry.js';
import { watchPool, watchQueue } from '../metrics/sources.js';

/** Starts counting; the returned function stops (when the worker stops). */
export function observeWorker(pool: pg.Pool, events: EventEmitter): () => void {
  const unwatchPool = watchPool('worker', pool);
  const unwatchQueue = watchQueue(pool);
  const outcomes = {
    'job:success': 'succeeded',
    'job:error': 'errored',
    'job:failed': 'failed',
  } as const;
  const listeners = Object.entries(outcomes).map(([event, outcome]) => {
    const listener = ({ job }: { job: Job }) => workerJobRuns.inc({ task: job.task_identifier, outcome });
    events.on(event, listener);
    return [event, listener] as const;
  });
  return () => {
    for (const [event, listener] of listeners) events.off(event, listener);
    unwatchQueue();
    unwatchPool();
  };
}
