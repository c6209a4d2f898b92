import 'reflect-metadata';
// The Prometheus endpoint: after real traffic (creates, a 404, a rate-limited
// request, webhook deliveries to a real receiver on loopback, one of them failing)
// every series an operator watches has moved, the API's and the worker's on one
// endpoint; and it is served only on its own listener, only with the token.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { startMetricsServer, type MetricsServer } from '../src/metrics/server.js';
import { useServer } from './support/fixtures.js';
import { eventually, useReceivers, useWorker } from './support/receiver.js';

const TOKEN = 'metrics-token-for-the-test';
const server = useServer({ RATE_LIMIT_MAX: '10', WEBHOOK_RETRY_BASE_MS: '100' });
useWorker(server);
const receiver = useReceivers();
let metrics: MetricsServer;

beforeAll(async () => {
  metrics = await startMetricsServer({ host: '127.0.0.1', port: 0, token: TOKEN });
});
afterAll(async () => {
  await metrics?.close();
});

async function scrape(): Promise<string> {
  const res = await fetch(metrics.url, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The sum of the samples of `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => given[key] === value)) {
      total = (total ?? 0) + Number(match[3]);
    }
  }
  return total;
}

const moved = (before: string, after: string, name: string, labels: Record<string, string> = {}) =>
  (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);

describe('GET /metrics after traffic', () => {
  it('shows every series moving: requests by route pattern, pools, refusals, jobs, deliveries, lag', async () => {
    const before = await scrape();
    const org = await server.org();
    const admin = await org.key(['admin']);
    const target = await receiver((_request, n) => (n === 1 ? { status: 500 } : {}));
    const subscribed = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: target.url, events: ['contact.created'] },
    });
    expect(subscribed.status, subscribed.text).toBe(201);

    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await server.rest('POST', '/v1/crm/contacts', {
        key: admin,
        body: { email: `m${n}-${Date.now()}@example.test`, firstName: 'Ada' },
      });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const missing = await server.rest('GET', '/v1/crm/contacts/con_00000000000000000000000000', { key: admin });
    expect(missing.status).toBe(404);
    expect((await server.rest('GET', '/v1/no-such-thing', { key: admin })).status).toBe(404);

    // A key of its own, over its budget of 10 requests a window.
    const limited = await org.key(['crm:read']);
    let refused = 0;
    for (let n = 0; n < 12; n++) {
      if ((await server.rest('GET', '/v1/crm/contacts', { key: limited })).status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);

    // Three events, the first attempt of one refused (500) and retried.
    await target.waitFor(4, 15_000);

    // Jobs in states a healthy worker leaves no time to see: one due in an hour, one out of attempts.
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `select graphile_worker.add_job('deliver_webhook', '{"probe": "scheduled"}'::json, run_at => now() + interval '1 hour')`,
      );
      const { rows } = await client.query<{ id: string }>(
        `select id from graphile_worker.add_job('deliver_webhook', '{"probe": "failed"}'::json,
           run_at => now() + interval '1 hour', max_attempts => 1)`,
      );
      await client.query('update graphile_worker._private_jobs set attempts = 1 where id = $1', [rows[0]!.id]);
    } finally {
      await client.end();
    }

    const after = await eventually(async () => {
      const text = await scrape();
      // Deliveries are counted once recorded, just after the receiver answered; a job when it completes.
      const recorded = moved(before, text, 'webhook_deliveries_total', { outcome: 'succeeded' }) >= 3;
      const completed =
        moved(before, text, 'worker_job_runs_total', { task: 'deliver_webhook', outcome: 'succeeded' }) >= 2;
      return recorded && completed ? text : undefined;
    });

    const requests = 'http_request_duration_seconds_count';
    expect(moved(before, after, requests, { method: 'POST', route: '/v1/crm/contacts', status: '201' })).toBe(3);
    expect(moved(before, after, requests, { method: 'GET', route: '/v1/crm/contacts/:id', status: '404' })).toBe(1);
    expect(moved(before, after, requests, { method: 'GET', route: '/v1/*', status: '404' })).toBe(1);
    expect(moved(before, after, requests, { method: 'GET', route: '/v1/crm/contacts', status: '429' })).toBe(0);
    expect(moved(before, after, requests, { route: '/v1/*', status: '429' })).toBe(refused);
    expect(
      moved(before, after, 'http_request_duration_seconds_bucket', { route: '/v1/crm/contacts', le: '+Inf' }),
    ).toBeGreaterThanOrEqual(3 + 10);
    expect(sample(after, 'http_request_duration_seconds_sum', { route: '/v1/crm/contacts' })).toBeGreaterThan(0);
    // Route patterns only: no id, no raw path.
    for (const id of ids) expect(after).not.toContain(id);
    expect(after).not.toContain('no-such-thing');
    expect(after).not.toContain('con_00000000000000000000000000');

    expect(moved(before, after, 'rate_limit_refusals_total', { limit: 'credential' })).toBe(refused);

    // The API's pool and the worker's, on one endpoint.
    for (const pool of ['api', 'worker']) {
      expect(sample(after, 'db_pool_connections', { pool, state: 'total' })).toBeGreaterThan(0);
      expect(sample(after, 'db_pool_connections', { pool, state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sample(after, 'db_pool_connections', { pool, state: 'waiting' })).toBe(0);
      expect(sample(after, 'db_pool_max_connections', { pool })).toBeGreaterThan(0);
    }

    expect(sample(after, 'worker_jobs', { task: 'deliver_webhook', state: 'scheduled' })).toBe(1);
    expect(sample(after, 'worker_jobs', { task: 'deliver_webhook', state: 'failed' })).toBe(1);
    // The last delivery job may still be completing: present, whatever its value.
    expect(sample(after, 'worker_jobs', { task: 'deliver_webhook', state: 'running' })).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'worker_jobs', { task: 'deliver_webhook', state: 'queued' })).toBeGreaterThanOrEqual(0);
    // A task with no jobs shows at 0 (read from graphile-worker's jobs view, our tasks named).
    expect(sample(after, 'worker_jobs', { task: 'run_export', state: 'queued' })).toBe(0);
    expect(sample(after, 'worker_jobs', { task: 'run_import', state: 'queued' })).toBe(0);
    expect(
      moved(before, after, 'worker_job_runs_total', { task: 'deliver_webhook', outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(2);

    expect(moved(before, after, 'webhook_deliveries_total', { outcome: 'succeeded', trigger: 'event' })).toBe(3);
    expect(moved(before, after, 'webhook_deliveries_total', { outcome: 'failed', trigger: 'event' })).toBe(1);
    // First attempts only: the retry is not a second lag.
    expect(moved(before, after, 'webhook_delivery_lag_seconds_count')).toBe(3);
    expect(sample(after, 'webhook_delivery_lag_seconds_sum')).toBeGreaterThan(0);
    expect(sample(after, 'webhook_fanout_backlog')).toBe(0);

    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows exports by status, and the progress of those running', async () => {
    const before = await scrape();
    const org = await server.org();
    const admin = await org.key(['admin']);
    const created = await server.rest('POST', '/v1/exports', {
      key: admin,
      body: { resource: 'contacts', format: 'csv' },
    });
    expect(created.status, created.text).toBe(202);
    await eventually(
      async () =>
        (await server.rest('GET', `/v1/exports/${created.body.id}`, { key: admin })).body.status === 'completed',
    );
    // A running export, caught half-way (a real one runs too fast to be seen running).
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into "Export" (id, "organizationId", resource, format, status, "rowsWritten", "rowsTotal", "updatedAt")
         values ('xpt_metrics0000000000000000000', $1, 'contacts', 'csv', 'running', 10, 40, now())`,
        [org.id],
      );
      const after = await scrape();
      expect(moved(before, after, 'exports', { status: 'completed' })).toBe(1);
      expect(moved(before, after, 'exports', { status: 'running' })).toBe(1);
      expect(moved(before, after, 'export_rows', { of: 'written' })).toBe(10);
      expect(moved(before, after, 'export_rows', { of: 'total' })).toBe(40);
    } finally {
      await client.query(`delete from "Export" where id = 'xpt_metrics0000000000000000000'`);
      await client.end();
    }
  });
});

describe('who may read them', () => {
  it('is not served on the service port', async () => {
    const res = await server.rest('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('http_request_duration_seconds');
  });

  it('answers 401 without the token or with another, and 404 for any other path', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }, { authorization: TOKEN }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(metrics.url, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(await res.text()).not.toContain('http_request_duration_seconds');
    }
    const other = await fetch(metrics.url.replace('/metrics', '/'), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(other.status).toBe(404);
  });

  it('is off unless METRICS_PORT is set, and needs a token off loopback', () => {
    expect(parseConfig({}).metrics).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464, token: undefined });
    expect(() => parseConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_TOKEN is required/);
    expect(parseConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9464,
      token: TOKEN,
    });
    expect(() => parseConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
