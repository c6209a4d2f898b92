// The process's Prometheus metrics: one registry, whatever runs in the process (the
// API, the worker, or both under `npm start`), served by src/metrics/server.ts.
// What is counted on a hot path costs a label lookup and an increment; what needs
// the database (queue depths, the fan-out backlog) is read only when scraped.
import client from 'prom-client';

export const registry = new client.Registry();

// CPU, memory (RSS, heap), event-loop delay, handles: prom-client's process_* and nodejs_*.
client.collectDefaultMetrics({ register: registry });

/** From the first byte of a request to its answer being handed to the socket. */
export const httpRequestDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern (never the raw path) and status, with their latency',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const rateLimitRefusals = new client.Counter({
  name: 'rate_limit_refusals_total',
  help: 'Requests refused 429 by a rate limit: credential (per key or token) or address (without a valid credential)',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export const webhookDeliveries = new client.Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (succeeded, failed) and trigger (event, redeliver, test)',
  labelNames: ['outcome', 'trigger'] as const,
  registers: [registry],
});

export const webhookDeliveryLag = new client.Histogram({
  name: 'webhook_delivery_lag_seconds',
  help: "From an event's commit (its createdAt) to the first attempt to deliver it to an endpoint",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
  registers: [registry],
});

export const workerJobRuns = new client.Counter({
  name: 'worker_job_runs_total',
  help: 'Background jobs this process ran, by task and outcome (succeeded; errored: will be retried; failed: out of attempts)',
  labelNames: ['task', 'outcome'] as const,
  registers: [registry],
});
