import 'reflect-metadata';
// The trust gaps of the second review (issue 23, items 2 to 6): local conveniences
// behind a proxy, IPv6 webhook addresses, metrics labels from the declared routes,
// rate limits off /v1, and bounds on exports and invoice numbering.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { isForbiddenAddress } from '../src/jobs/url-policy.js';
import { proxySign, proxyWatch } from '../src/local-conveniences.js';
import { httpRequestDuration } from '../src/metrics/registry.js';
import { expectError } from './support/contract.js';
import { finishedJob } from './support/file-jobs.js';
import { useServer, type ServerFixture } from './support/fixtures.js';
import { useWorker } from './support/receiver.js';

/** A server as a deployment without NODE_ENV runs it: strict policies. */
const strictServer = (env: Record<string, string> = {}) =>
  useServer({ NODE_ENV: '', WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'), ...env });

const createWebhook = (server: ServerFixture, key: string, url: string, headers: Record<string, string> = {}) =>
  server.rest('POST', '/v1/webhooks', { key, headers, body: { url, events: ['contact.created'] } });

describe('local conveniences behind a proxy', () => {
  const embeddedOnLoopback = /^NODE_ENV is unset, the database is the embedded PostgreSQL/;

  it('are off at start-up when PUBLIC_URL is https or another host; on for a loopback http PUBLIC_URL', () => {
    expect(parseConfig({ PUBLIC_URL: 'https://erp.example.com' }).localConveniences).toBeNull();
    expect(parseConfig({ PUBLIC_URL: 'https://localhost:3000' }).localConveniences).toBeNull();
    expect(parseConfig({ PUBLIC_URL: 'http://erp.example.com:3000' }).localConveniences).toBeNull();
    expect(parseConfig({ PUBLIC_URL: 'http://192.168.1.20:3000' }).localConveniences).toBeNull();
    expect(parseConfig({ PUBLIC_URL: 'http://localhost:3000' }).localConveniences?.reason).toMatch(embeddedOnLoopback);
    expect(parseConfig({ PUBLIC_URL: 'http://[::1]:3000/' }).localConveniences?.reason).toMatch(embeddedOnLoopback);
    // Said on purpose, they stay on.
    expect(parseConfig({ NODE_ENV: 'development', PUBLIC_URL: 'https://erp.example.com' }).localConveniences).toEqual({
      reason: 'NODE_ENV=development',
    });
  });

  it('see a proxy in forwarded headers and in a Host that is not loopback', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'LOCALHOST', '[::1]:3000', 'app.localhost:3000']) {
      expect(proxySign({ headers: { host } }), host).toBeUndefined();
    }
    expect(proxySign({ headers: { host: 'erp.example.com' } })).toMatch(/host "erp.example.com"/);
    expect(proxySign({ headers: { host: '192.168.1.20:3000' } })).toMatch(/not loopback/);
    for (const name of ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip']) {
      expect(proxySign({ headers: { host: '127.0.0.1:3000', [name]: 'x' } })).toContain(name);
    }
  });

  it('are left on when NODE_ENV=development said so', () => {
    const config = parseConfig({ NODE_ENV: 'development' });
    const warnings: string[] = [];
    proxyWatch(config, { warn: (_fields, message) => warnings.push(message) })({
      headers: { host: 'erp.example.com', 'x-forwarded-for': '203.0.113.5' },
    });
    expect(config.localConveniences).toEqual({ reason: 'NODE_ENV=development' });
    expect(warnings).toEqual([]);
  });

  describe('a server on the embedded database, loopback, NODE_ENV unset', () => {
    // No DATABASE_URL: as `npm start` on a developer's machine (the fixture still gives it its own database).
    const server = useServer({
      NODE_ENV: '',
      DATABASE_URL: '',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'trust-edges-')),
    });
    let admin: string;
    beforeAll(async () => {
      admin = await (await server.org()).key(['admin']);
    });

    it('refuses the relaxed policies to the first request through a proxy, and to every one after', async () => {
      expect(server.config.localConveniences?.reason).toMatch(embeddedOnLoopback);
      const direct = await createWebhook(server, admin, 'http://127.0.0.1:9/direct');
      expect(direct.status, direct.text).toBe(201);

      const proxied = await createWebhook(server, admin, 'http://127.0.0.1:9/proxied', {
        'x-forwarded-for': '203.0.113.5',
      });
      expectError(proxied, 400, 'VALIDATION_ERROR', 'url');
      expect(server.config.localConveniences).toBeNull();

      // Off for good: a request straight from this machine is strict too.
      expectError(await createWebhook(server, admin, 'http://127.0.0.1:9/later'), 400, 'VALIDATION_ERROR', 'url');
      const app = await server.rest('POST', '/v1/oauth-apps', {
        key: admin,
        body: { name: 'App', redirectUris: ['http://app.example.test/callback'], scopes: ['crm:read'] },
      });
      expectError(app, 400, 'VALIDATION_ERROR', 'redirectUris');
    });
  });
});

describe('webhook addresses (strict policy)', () => {
  it('refuses IPv6 addresses outside global unicast, special-purpose ones, and those embedding a private IPv4', () => {
    for (const address of [
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:7f00:1', // SIIT ::ffff:0:0:0/96
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '::a00:1',
      '::8.8.8.8', // IPv4-compatible: deprecated, never routed
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '64:ff9b:1::808:808', // NAT64 local use
      '2001::7f00:1', // Teredo
      '2001:2::1', // benchmarking
      '2001:20::1', // ORCHIDv2
      '2001:db8::1',
      '3fff::1',
      '5f00::1',
      'fec0::1', // site-local
      'fd00:ec2::254',
      'fe80::1',
      'fe80::1%eth0',
      'ff02::1',
      '100::1',
      '::',
      '::1',
      '4000::1', // not yet allocated, outside 2000::/3
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of [
      '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      '2001:4860:4860::8888',
      '2a00:1450:4001:82b::200e',
      '::ffff:93.184.215.14',
      '64:ff9b::5db8:d70e', // NAT64 of 93.184.215.14
      '2002:5db8:d70e::1', // 6to4 of 93.184.215.14
      '93.184.215.14',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
    expect(isForbiddenAddress('192.88.99.1')).toBe(true);
  });

  describe('on a server without NODE_ENV', () => {
    const server = strictServer();
    it('refuses a webhook to an IPv6 literal that leads home (400 naming url)', async () => {
      const admin = await (await server.org()).key(['admin']);
      for (const host of ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[2002:a9fe:a9fe::]', '[::a00:1]', '[fec0::1]']) {
        expectError(await createWebhook(server, admin, `https://${host}/x`), 400, 'VALIDATION_ERROR', 'url');
      }
    });
  });
});

describe('metrics labels and rate limits on every path', () => {
  const server = strictServer({ RATE_LIMIT_MAX: '40' });

  async function routeLabels(): Promise<string[]> {
    const metric = await httpRequestDuration.get();
    return [...new Set(metric.values.map((value) => String(value.labels.route)))];
  }

  it('labels a request with its declared route and mount, whatever the letter case the client sent', async () => {
    const key = await (await server.org()).key(['admin']);
    const answered = [
      await server.rest('GET', '/Dashboard/anything'),
      await server.rest('GET', '/OAUTH/nothing-here'),
      await server.rest('GET', '/DOCS'),
      await server.rest('GET', '/V1/crm/contacts', { key }),
      await server.rest('GET', '/V1/NO-SUCH-THING', { key }),
    ];
    expect(answered.map((res) => res.status)).not.toContain(500);
    const labels = await routeLabels();
    expect(labels.filter((label) => /[A-Z]/.test(label))).toEqual([]);
    expect(labels).toEqual(expect.arrayContaining(['/dashboard/*', '/oauth/*', '/docs/', '/v1/crm/contacts', '/v1/*']));
  });

  it('spends a point of the credential for /oauth, /docs and /dashboard too', async () => {
    const key = await (await server.org()).key(['crm:read']);
    const remaining = (res: { headers: Headers }) => Number(res.headers.get('RateLimit-Remaining'));
    const first = await server.rest('GET', '/v1/crm/contacts', { key });
    expect(first.status).toBe(200);
    for (const where of ['/docs', '/dashboard', '/oauth/nothing-here']) {
      const res = await server.rest('GET', where, { key });
      expect(res.headers.get('RateLimit-Limit'), where).toBe('40');
    }
    const last = await server.rest('GET', '/v1/crm/contacts', { key });
    expect(remaining(first) - remaining(last)).toBe(4);
  });
});

describe('exports pending per organization', () => {
  // No worker: every export stays pending.
  const server = strictServer({ EXPORT_MAX_PENDING: '2' });

  it('refuses one more than EXPORT_MAX_PENDING with a 409 saying why; other organizations are not held up', async () => {
    const key = await (await server.org()).key(['admin']);
    const ask = (withKey: string) =>
      server.rest('POST', '/v1/exports', { key: withKey, body: { resource: 'contacts', format: 'csv' } });
    expect((await ask(key)).status).toBe(202);
    expect((await ask(key)).status).toBe(202);
    const refused = await ask(key);
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toMatch(/EXPORT_MAX_PENDING/);
    expect((await server.rest('GET', '/v1/exports', { key })).body.data).toHaveLength(2);
    const other = await (await server.org()).key(['admin']);
    expect((await ask(other)).status).toBe(202);
  });
});

describe('exports too big', () => {
  const server = strictServer({ EXPORT_MAX_ROWS: '5', EXPORT_MAX_BYTES: '1024', RATE_LIMIT_MAX: '1000' });
  useWorker(server);

  async function exportOf(key: string, contacts: number, tags: string[] = []) {
    for (let n = 0; n < contacts; n++) {
      const res = await server.rest('POST', '/v1/crm/contacts', {
        key,
        body: { email: `big${n}-${Date.now()}@example.test`, tags },
      });
      expect(res.status, res.text).toBe(201);
    }
    const created = await server.rest('POST', '/v1/exports', { key, body: { resource: 'contacts', format: 'csv' } });
    expect(created.status, created.text).toBe(202);
    return finishedJob(server, 'exports', created.body.id as string, key, { failed: 'answer', timeoutMs: 10_000 });
  }

  it('fails an export of more rows than EXPORT_MAX_ROWS, saying so', async () => {
    const key = await (await server.org()).key(['admin']);
    const done = await exportOf(key, 6);
    expect(done).toMatchObject({ status: 'failed', size: 0 });
    expect(done.failureReason).toMatch(/6 rows.*EXPORT_MAX_ROWS/);
  });

  it('fails an export whose file grows past EXPORT_MAX_BYTES, saying so, and keeps none of it', async () => {
    const key = await (await server.org()).key(['admin']);
    const tags = Array.from({ length: 10 }, (_, n) => `${n}${'t'.repeat(60)}`);
    const done = await exportOf(key, 4, tags);
    expect(done.status).toBe('failed');
    expect(done.failureReason).toMatch(/EXPORT_MAX_BYTES/);
    const chunks = await server.prisma.exportChunk.count({ where: { exportId: done.id } });
    expect(chunks).toBe(0);
    const download = await server.rest('GET', `/v1/exports/${done.id}/download`, { key });
    expect(download.status).toBe(409);
  });

  it('still completes an export within both bounds', async () => {
    const key = await (await server.org()).key(['admin']);
    expect((await exportOf(key, 3)).status).toBe('completed');
  });
});

describe('invoice numbers past numbers clients took', () => {
  const server = strictServer({ RATE_LIMIT_MAX: '1000' });
  const TAKEN = 50_000;

  async function setUp() {
    const org = await server.org();
    const key = await org.key(['admin']);
    const contact = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: `payer-${Date.now()}@example.test` },
    });
    expect(contact.status, contact.text).toBe(201);
    const create = (body: Record<string, unknown> = {}) =>
      server.rest('POST', '/v1/finance/invoices', {
        key,
        body: {
          contactId: contact.body.id,
          currency: 'USD',
          lines: [{ description: 'Work', quantity: 1, unitAmount: 100 }],
          ...body,
        },
      });
    return { org, contactId: contact.body.id as string, create };
  }

  it('skips a run of taken numbers in one step, however long', async () => {
    const { org, contactId, create } = await setUp();
    // As if clients had given every number from INV-000001 to INV-050000.
    await server.prisma.$executeRawUnsafe(
      `insert into "Invoice" (id, "organizationId", number, "contactId", currency, "issueDate", "dueDate", lines,
         subtotal, total, "updatedAt")
       select 'inv_' || lpad(g::text, 26, '0') || $1, $2, 'INV-' || lpad(g::text, 6, '0'), $3, 'USD',
         current_date, current_date, '[]', 0, 0, now()
       from generate_series(1, ${TAKEN}) g`,
      org.id.slice(-6),
      org.id,
      contactId,
    );
    const started = Date.now();
    const res = await create();
    expect(res.status, res.text).toBe(201);
    expect(res.body.number).toBe(`INV-0${TAKEN + 1}`);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await create()).body.number).toBe(`INV-0${TAKEN + 2}`);
  }, 30_000);

  it('fills the first gap after the counter and skips the numbers clients took beyond it', async () => {
    const { create } = await setUp();
    for (const number of ['INV-000001', 'INV-000002', 'INV-000004', 'INV-1000000', 'INV-00005', 'X-000005']) {
      expect((await create({ number })).status).toBe(201);
    }
    expect((await create()).body.number).toBe('INV-000003');
    expect((await create()).body.number).toBe('INV-000005');
    expect((await create()).body.number).toBe('INV-000006');
  });
});
