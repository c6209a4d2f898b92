import 'reflect-metadata';
// Webhook subscriptions over REST and GraphQL: the record and its secret (shown
// once, encrypted at rest), validation (unknown event types name `events`),
// scopes, tenancy of every webhook operation, secret rotation, the test event,
// the deliveries log, manual retry and bulk redelivery, and production's URL
// rules. Delivery itself: webhook-delivery.test.ts.
import pg from 'pg';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg } from './support/fixtures.js';
import {
  eventually,
  expectServiceSignature,
  sleep,
  useReceivers,
  useWorker,
  type Receiver,
} from './support/receiver.js';
import { expectError } from './support/contract.js';
import { prune } from '../src/jobs/prune.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000', WEBHOOK_RETRY_BASE_MS: '100' });
useWorker(server);
const receiver = useReceivers();

let org: TestOrg;
let key: string;
beforeAll(async () => {
  org = await server.org();
  key = await org.key(['admin']);
});

async function subscribe(target: Receiver | string, events = ['contact.created'], withKey = key) {
  const url = typeof target === 'string' ? target : target.url;
  const res = await server.rest('POST', '/v1/webhooks', { key: withKey, body: { url, events, description: 'test' } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string; url: string };
}

async function createContact(withKey = key) {
  const email = `c-${Math.random().toString(36).slice(2)}@example.test`;
  const res = await server.rest('POST', '/v1/crm/contacts', { key: withKey, body: { email } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

async function log(webhookId: string, query = '') {
  const limit = query.includes('limit=') ? '' : 'limit=100';
  const res = await server.rest('GET', `/v1/webhooks/${webhookId}/deliveries?${limit}${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: Record<string, unknown>[]; pagination: Record<string, number> };
}

describe('the record', () => {
  it('answers 201 with the record and a whsec_ secret, shown on create only and stored encrypted', async () => {
    const res = await server.rest('POST', '/v1/webhooks', {
      key,
      body: {
        url: 'http://127.0.0.1:9/x',
        events: ['contact.created', 'deal.closed', 'contact.created'],
        description: 'CRM',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-z]{26}$/),
      url: 'http://127.0.0.1:9/x',
      events: ['contact.created', 'deal.closed'],
      scopes: ['admin'],
      description: 'CRM',
      status: 'enabled',
      disabledReason: null,
      disabledAt: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { secret, ...record } = res.body;
    const fetched = await server.rest('GET', `/v1/webhooks/${record.id}`, { key });
    expect(fetched.body).toEqual(record);
    const listed = await server.rest('GET', '/v1/webhooks?limit=100', { key });
    expect(listed.text).not.toContain(secret);

    // At rest: neither the secret nor its base64 body appear in the row.
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('select * from "Webhook" where id = $1', [record.id]);
      const stored = JSON.stringify(rows[0]);
      expect(stored).not.toContain(secret.slice('whsec_'.length));
      // Sealed under the server key named in it.
      expect(rows[0].secretEncrypted).toMatch(/^v2\.[\w-]+\./);
    } finally {
      await client.end();
    }
  });

  it('answers 400 VALIDATION_ERROR naming the field for bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ events: ['contact.created'] }, 'url'],
      [{ url: 'not a url', events: ['contact.created'] }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['contact.created'] }, 'url'],
      [{ url: 'http://127.0.0.1:9/x' }, 'events'],
      [{ url: 'http://127.0.0.1:9/x', events: [] }, 'events'],
      [{ url: 'http://127.0.0.1:9/x', events: ['contact.exploded'] }, 'events'],
      [{ url: 'http://127.0.0.1:9/x', events: ['contact.created', 42] }, 'events'],
      [{ url: 'http://127.0.0.1:9/x', events: 'contact.created' }, 'events'],
      [{ url: 'http://127.0.0.1:9/x', events: ['contact.created'], status: 'paused' }, 'status'],
      [{ url: 'http://127.0.0.1:9/x', events: ['contact.created'], secretEncrypted: 'mine' }, 'secretEncrypted'],
    ];
    for (const [body, field] of cases) {
      const res = await server.rest('POST', '/v1/webhooks', { key, body });
      expectError(res, 400, 'VALIDATION_ERROR', field);
    }
    const unknown = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: 'http://127.0.0.1:9/x', events: ['contact.exploded'] },
    });
    expect(unknown.body.error.message).toContain('contact.exploded');
    const { id } = await subscribe('http://127.0.0.1:9/y');
    expectError(
      await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { events: ['nope'] } }),
      400,
      'VALIDATION_ERROR',
      'events',
    );
    expectError(
      await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { url: null } }),
      400,
      'VALIDATION_ERROR',
      'url',
    );
    expectError(
      await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { status: null } }),
      400,
      'VALIDATION_ERROR',
      'status',
    );
    expectError(
      await server.rest('POST', `/v1/webhooks/${id}/redeliver`, { key, body: { since: 'yesterday' } }),
      400,
      'VALIDATION_ERROR',
      'since',
    );
    expectError(
      await server.rest('POST', `/v1/webhooks/${id}/redeliver`, { key, body: {} }),
      400,
      'VALIDATION_ERROR',
      'since',
    );
    expectError(
      await server.rest('GET', `/v1/webhooks/${id}/deliveries?status=maybe`, { key }),
      400,
      'VALIDATION_ERROR',
      'status',
    );
  });

  it('needs admin for every webhook operation (403 naming it)', async () => {
    const { id } = await subscribe('http://127.0.0.1:9/z');
    const crm = await org.key(['crm:read', 'crm:write', 'hr:read', 'finance:read']);
    const operations: [string, string, unknown?][] = [
      ['GET', '/v1/webhooks'],
      ['POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: ['contact.created'] }],
      ['GET', `/v1/webhooks/${id}`],
      ['PUT', `/v1/webhooks/${id}`, { description: 'x' }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/rotate-secret`],
      ['POST', `/v1/webhooks/${id}/test`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/deliveries/whd_00000000000000000000000000/retry`],
      ['POST', `/v1/webhooks/${id}/redeliver`, { since: 0 }],
    ];
    for (const [method, path, body] of operations) {
      const res = await server.rest(method, path, { key: crm, body });
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toContain('admin');
    }
  });

  it('answers 404 to another organization for every operation on a webhook, and never lists it', async () => {
    const target = await receiver();
    const { id } = await subscribe(target);
    await createContact();
    await target.waitFor(1);
    const [delivery] = (await eventually(async () =>
      (await log(id)).data.length ? (await log(id)).data : undefined,
    ))!;
    const foreign = await (await server.org()).key(['admin']);
    const operations: [string, string, unknown?][] = [
      ['GET', `/v1/webhooks/${id}`],
      ['PUT', `/v1/webhooks/${id}`, { description: 'mine now' }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/rotate-secret`],
      ['POST', `/v1/webhooks/${id}/test`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/deliveries/${delivery!.id}/retry`],
      ['POST', `/v1/webhooks/${id}/redeliver`, { since: 0 }],
    ];
    for (const [method, path, body] of operations) {
      const res = await server.rest(method, path, { key: foreign, body });
      expectError(res, 404, 'NOT_FOUND');
      expect(res.text).not.toContain(id);
    }
    const listed = await server.rest('GET', '/v1/webhooks?limit=100', { key: foreign });
    expect(listed.text).not.toContain(id);
    const gql = await server.gql(
      `query ($id: ID!) { webhookDeliveries(webhookId: $id) { data { id } } }`,
      { id },
      { key: foreign },
    );
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(target.received).toHaveLength(1);
    expect((await server.rest('GET', `/v1/webhooks/${id}`, { key })).body.description).toBe('test');
  });

  it('PUT changes what is sent, disables and re-enables; a PUT that changes nothing keeps updatedAt', async () => {
    const { id, updatedAt } = (await subscribe('http://127.0.0.1:9/p')) as unknown as { id: string; updatedAt: string };
    const same = await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { description: 'test' } });
    expect(same.body.updatedAt).toBe(updatedAt);
    const off = await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { status: 'disabled' } });
    expect(off.body).toMatchObject({ status: 'disabled', disabledReason: expect.stringMatching(/API/) });
    expect(off.body.disabledAt).toEqual(expect.any(String));
    const on = await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { status: 'enabled', description: null } });
    expect(on.body).toMatchObject({ status: 'enabled', disabledReason: null, disabledAt: null, description: null });
    const filtered = await server.rest('GET', '/v1/webhooks?status=disabled&limit=100', { key });
    expect(filtered.body.data.map((w: { id: string }) => w.id)).not.toContain(id);
  });
});

/** The headers a Standard Webhooks library verifies. */
const standardHeaders = (request: { headers: Record<string, unknown> }) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

const verifies = (secret: string, request: { body: string; headers: Record<string, unknown> }) => {
  try {
    new StandardWebhook(secret).verify(request.body, standardHeaders(request));
    return true;
  } catch {
    return false;
  }
};

describe('secret rotation', () => {
  it('signs with the new and the replaced secret during the grace period; X-Service-Signature with the new one', async () => {
    expect(server.config.webhooks.secretRotationGraceSeconds).toBe(86_400);
    const target = await receiver();
    const { id, secret: old } = await subscribe(target);
    await createContact();
    const [before] = await target.waitFor(1);
    expect(String(before!.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const rotated = await server.rest('POST', `/v1/webhooks/${id}/rotate-secret`, { key });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.id).toBe(id);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    await createContact();
    const [, after] = await target.waitFor(2);
    // A receiver still on the old secret and one already on the new both accept it.
    expect(verifies(rotated.body.secret, after!)).toBe(true);
    expect(verifies(old, after!)).toBe(true);
    expect(String(after!.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
    // One value: the new secret's.
    expectServiceSignature(after!, rotated.body.secret);
    expect(() => expectServiceSignature(after!, old)).toThrow();
    // At rest the replaced secret is sealed like the current one.
    const row = await server.prisma.webhook.findUniqueOrThrow({ where: { id } });
    expect(row.previousSecretEncrypted).toMatch(/^v[12]\./);
    expect(JSON.stringify(row)).not.toContain(old.slice('whsec_'.length));
  });

  it('refuses a secret sealed for another webhook: it is never used to sign', async () => {
    const [mine, theirs] = [await receiver(), await receiver()];
    const a = await subscribe(mine);
    const b = await subscribe(theirs);
    const stolen = await server.prisma.webhook.findUniqueOrThrow({ where: { id: a.id } });
    // Someone who can write to the database copies A's sealed secret onto B.
    await server.prisma.webhook.update({ where: { id: b.id }, data: { secretEncrypted: stolen.secretEncrypted } });
    expect((await server.rest('POST', `/v1/webhooks/${b.id}/test`, { key })).status).toBe(200);
    expect((await server.rest('POST', `/v1/webhooks/${a.id}/test`, { key })).status).toBe(200);
    await mine.waitFor(1);
    await sleep(500);
    expect(theirs.received).toHaveLength(0);
    expect(verifies(a.secret, mine.received[0]!)).toBe(true);
  });
});

describe('secret rotation, after the grace period', () => {
  const brief = useServer({ RATE_LIMIT_MAX: '1000000', WEBHOOK_SECRET_ROTATION_GRACE_S: '1' });
  useWorker(brief);

  it('signs with the new secret only once the grace period is over, and forgets the old one', async () => {
    const admin = await (await brief.org()).key(['admin']);
    const target = await receiver();
    const created = await brief.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: target.url, events: ['contact.created'] },
    });
    const { id, secret: old } = created.body;
    const rotated = await brief.rest('POST', `/v1/webhooks/${id}/rotate-secret`, { key: admin });
    const contact = () =>
      brief.rest('POST', '/v1/crm/contacts', { key: admin, body: { email: `${Math.random()}@example.test` } });
    await contact();
    const [during] = await target.waitFor(1);
    expect(verifies(old, during!)).toBe(true);
    expect(verifies(rotated.body.secret, during!)).toBe(true);
    await sleep(1100);
    await contact();
    const [, after] = await target.waitFor(2);
    expect(verifies(rotated.body.secret, after!)).toBe(true);
    expect(verifies(old, after!)).toBe(false);
    expect(String(after!.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    // The hourly prune drops the replaced secret.
    const pool = new pg.Pool({ connectionString: brief.databaseUrl, max: 1 });
    const pruned = await prune({ pool, config: brief.config }).finally(() => pool.end());
    expect(pruned.webhookSecrets).toBeGreaterThanOrEqual(1);
    const row = await brief.prisma.webhook.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ previousSecretEncrypted: null, previousSecretExpiresAt: null });
  });
});

describe('secret rotation without a grace period', () => {
  const instant = useServer({ RATE_LIMIT_MAX: '1000000', WEBHOOK_SECRET_ROTATION_GRACE_S: '0' });
  useWorker(instant);

  it('signs every delivery after rotation with the new secret only', async () => {
    const admin = await (await instant.org()).key(['admin']);
    const target = await receiver();
    const created = await instant.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: target.url, events: ['contact.created'] },
    });
    const { id, secret: old } = created.body;
    const rotated = await instant.rest('POST', `/v1/webhooks/${id}/rotate-secret`, { key: admin });
    expect(rotated.status, rotated.text).toBe(200);
    await instant.rest('POST', '/v1/crm/contacts', { key: admin, body: { email: 'instant@example.test' } });
    const [after] = await target.waitFor(1);
    expectServiceSignature(after!, rotated.body.secret);
    expect(() => expectServiceSignature(after!, old)).toThrow();
    expect(verifies(rotated.body.secret, after!)).toBe(true);
    expect(verifies(old, after!)).toBe(false);
  });
});

describe('test event', () => {
  it('sends a signed webhook.test event to that webhook only, logged as a test', async () => {
    const target = await receiver();
    const bystander = await receiver();
    const { id, secret } = await subscribe(target, ['contact.created', 'deal.created']);
    await subscribe(bystander, ['contact.created', 'deal.created']);
    const res = await server.rest('POST', `/v1/webhooks/${id}/test`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ webhookId: id, eventIds: [expect.stringMatching(/^evt_/)], count: 1 });
    const [request] = await target.waitFor(1);
    expectServiceSignature(request!, secret);
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      id: res.body.eventIds[0],
      type: 'webhook.test',
      data: { object: { id, url: target.url } },
    });
    await sleep(300);
    expect(bystander.received).toHaveLength(0);
    const entries = await eventually(async () => ((await log(id)).data.length ? (await log(id)).data : undefined));
    expect(entries[0]).toMatchObject({
      trigger: 'test',
      eventType: 'webhook.test',
      status: 'succeeded',
      statusCode: 200,
    });
    // Not an event of the domain: /v1/events does not list it.
    expect((await server.rest('GET', `/v1/events/${body.id}`, { key })).status).toBe(404);
  });
});

describe('deliveries log, retry and redelivery', () => {
  it('logs each attempt with status, duration, error and a bounded excerpt of the answer, paginated', async () => {
    const big = 'x'.repeat(5000);
    const target = await receiver((_request, n) => (n === 1 ? { status: 500, body: big } : { status: 204, body: '' }));
    const { id } = await subscribe(target);
    const contact = await createContact();
    await target.waitFor(2);
    const page = await eventually(async () => {
      const body = await log(id);
      return body.data.length === 2 ? body : undefined;
    });
    expect(page.pagination).toEqual({ page: 1, limit: 100, total: 2, pages: 1, totalExact: true, next: null });
    const [failed, succeeded] = page.data;
    expect(failed).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      webhookId: id,
      eventType: 'contact.created',
      attempt: 1,
      trigger: 'event',
      status: 'failed',
      statusCode: 500,
      error: 'HTTP 500',
      nextAttemptAt: expect.any(String),
    });
    expect(String(failed!.responseExcerpt)).toBe('x'.repeat(1024));
    expect(succeeded).toMatchObject({
      attempt: 2,
      status: 'succeeded',
      statusCode: 204,
      error: null,
      responseExcerpt: null,
    });
    expect(failed!.eventId).toBe(succeeded!.eventId);
    const event = await server.rest('GET', `/v1/events/${failed!.eventId}`, { key });
    expect(event.body.data.object.id).toBe(contact.id);

    const newestFirst = await log(id, 'sort=-createdAt&limit=1');
    expect(newestFirst.data.map((row) => row.id)).toEqual([succeeded!.id]);
    expect(newestFirst.pagination).toEqual({
      page: 1,
      limit: 1,
      total: 2,
      pages: 2,
      totalExact: true,
      next: expect.any(String),
    });
    expect((await log(id, '&status=failed')).data.map((row) => row.id)).toEqual([failed!.id]);

    const gql = await server.gql(
      `query ($id: ID!) { webhookDeliveries(webhookId: $id, sort: createdAt) { data { id attempt status } pagination { total } } }`,
      { id },
      { key },
    );
    expect(gql.errors, gql.text).toBeUndefined();
    expect(gql.data.webhookDeliveries.data.map((row: { id: string }) => row.id)).toEqual([failed!.id, succeeded!.id]);
  });

  it('retries a logged delivery by hand: one more attempt with the same event id', async () => {
    const target = await receiver();
    const { id } = await subscribe(target);
    await createContact();
    const [first] = await target.waitFor(1);
    const [entry] = (await eventually(async () => ((await log(id)).data.length ? (await log(id)).data : undefined)))!;
    const res = await server.rest('POST', `/v1/webhooks/${id}/deliveries/${entry!.id}/retry`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ webhookId: id, eventIds: [entry!.eventId], count: 1 });
    const [, again] = await target.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);
    const entries = await eventually(async () =>
      (await log(id)).data.length === 2 ? (await log(id)).data : undefined,
    );
    expect(entries[1]).toMatchObject({ trigger: 'manual', attempt: 1, status: 'succeeded' });
    expectError(
      await server.rest('POST', `/v1/webhooks/${id}/deliveries/whd_00000000000000000000000000/retry`, { key }),
      404,
      'NOT_FOUND',
    );
    expectError(await server.rest('POST', `/v1/webhooks/${id}/deliveries/nope/retry`, { key }), 404, 'NOT_FOUND');
  });

  it('redelivers every event since T whose attempts all failed, and only those', async () => {
    let down = true;
    const target = await receiver(() => (down ? { status: 500 } : {}));
    const { id } = await subscribe(target);
    // The 4 attempts of each failed event take 100 x (1 + 4 + 16) ms.
    const lost = [await createContact(), await createContact()];
    await target.waitFor(8, 15_000);
    await eventually(async () => (await log(id, '&status=failed')).data.length === 8);
    down = false;
    const delivered = await createContact();
    await target.waitFor(9);
    await eventually(async () => (await log(id, '&status=succeeded')).data.length === 1);

    const tooLate = await server.rest('POST', `/v1/webhooks/${id}/redeliver`, {
      key,
      body: { since: Math.floor(Date.now() / 1000) + 60 },
    });
    expect(tooLate.body).toEqual({ webhookId: id, eventIds: [], count: 0 });

    const res = await server.rest('POST', `/v1/webhooks/${id}/redeliver`, { key, body: { since: 0 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.count).toBe(2);
    const requests = await target.waitFor(11);
    const redelivered = requests.slice(9).map((request) => JSON.parse(request.body).data.object.id);
    expect(redelivered.sort()).toEqual(lost.map((contact) => contact.id).sort());
    expect(redelivered).not.toContain(delivered.id);
    const eventIds = requests.slice(9).map((request) => request.headers['webhook-id']);
    expect(eventIds.sort()).toEqual([...res.body.eventIds].sort());
  });

  it('refuses to retry or redeliver to a disabled webhook (409), but sends it a test event', async () => {
    const target = await receiver();
    const { id } = await subscribe(target);
    await createContact();
    await target.waitFor(1);
    const [entry] = (await eventually(async () => ((await log(id)).data.length ? (await log(id)).data : undefined)))!;
    await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { status: 'disabled' } });
    expectError(
      await server.rest('POST', `/v1/webhooks/${id}/deliveries/${entry!.id}/retry`, { key }),
      409,
      'CONFLICT',
      'status',
    );
    expectError(
      await server.rest('POST', `/v1/webhooks/${id}/redeliver`, { key, body: { since: 0 } }),
      409,
      'CONFLICT',
      'status',
    );
    expect((await server.rest('POST', `/v1/webhooks/${id}/test`, { key })).status).toBe(200);
    await target.waitFor(2);
    expect(JSON.parse(target.received[1]!.body).type).toBe('webhook.test');
  });

  it('stops delivering to a deleted webhook', async () => {
    const target = await receiver();
    const { id } = await subscribe(target);
    const res = await server.rest('DELETE', `/v1/webhooks/${id}`, { key });
    expect(res.status).toBe(204);
    await createContact();
    await sleep(400);
    expect(target.received).toHaveLength(0);
  });
});

describe('GraphQL', () => {
  it('creates, rotates and tests a webhook with the same rules', async () => {
    const target = await receiver();
    const created = await server.gql(
      `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { id secret events status } }`,
      // GraphQL names the EventType enum's values with `_` (contact_created); the webhook stores contact.created.
      { input: { url: target.url, events: ['contact_created'] } },
      { key },
    );
    expect(created.errors, created.text).toBeUndefined();
    expect(created.data.createWebhook.events).toEqual(['contact_created']);
    const { id, secret } = created.data.createWebhook;
    const viaRest = await server.rest('GET', `/v1/webhooks/${id}`, { key });
    expect(viaRest.body.events).toEqual(['contact.created']);
    expect(secret).toMatch(/^whsec_/);
    const bad = await server.gql(
      `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }`,
      { input: { url: target.url, events: ['nope'] } },
      { key },
    );
    // Not a value of the enum: refused as the variable is read, naming the item.
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'events[0]' });
    const rotated = await server.gql(
      `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { id secret } }`,
      { id },
      { key },
    );
    expect(rotated.data.rotateWebhookSecret.secret).not.toBe(secret);
    const tested = await server.gql(`mutation ($id: ID!) { testWebhook(id: $id) { count eventIds } }`, { id }, { key });
    expect(tested.data.testWebhook.count).toBe(1);
    const [request] = await target.waitFor(1);
    expectServiceSignature(request!, rotated.data.rotateWebhookSecret.secret);
  });
});

describe('production URL rules', () => {
  const production = useServer({
    NODE_ENV: 'production',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
    RATE_LIMIT_MAX: '1000000',
  });
  useWorker(production);

  it('refuses http and URLs that resolve to loopback, private, link-local or metadata addresses', async () => {
    const admin = await (await production.org()).key(['admin']);
    const refused = [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
    ];
    for (const url of refused) {
      const res = await production.rest('POST', '/v1/webhooks', {
        key: admin,
        body: { url, events: ['contact.created'] },
      });
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expectError(res, 400, 'VALIDATION_ERROR', 'url');
    }
    const allowed = await production.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: 'https://93.184.215.14/hook', events: ['contact.created'] },
    });
    expect(allowed.status, allowed.text).toBe(201);
    const { id } = allowed.body;
    const moved = await production.rest('PUT', `/v1/webhooks/${id}`, {
      key: admin,
      body: { url: 'https://127.0.0.1/x' },
    });
    expectError(moved, 400, 'VALIDATION_ERROR', 'url');
  });

  it('checks again at delivery: an address that became private is refused without connecting', async () => {
    const admin = await (await production.org()).key(['admin']);
    const created = await production.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: 'https://93.184.215.14/hook', events: ['contact.created'] },
    });
    expect(created.status, created.text).toBe(201);
    const target = await receiver();
    const port = new URL(target.url).port;
    // As if DNS now pointed elsewhere (a literal, then a name that resolves to loopback).
    for (const url of [`https://127.0.0.1:${port}/hook`, `https://localhost:${port}/hook`]) {
      await production.prisma.webhook.update({ where: { id: created.body.id }, data: { url } });
      const { eventIds } = (await production.rest('POST', `/v1/webhooks/${created.body.id}/test`, { key: admin })).body;
      const entry = await eventually(async () => {
        const res = await production.rest('GET', `/v1/webhooks/${created.body.id}/deliveries?eventId=${eventIds[0]}`, {
          key: admin,
        });
        return res.body.data[0];
      });
      expect(entry).toMatchObject({ status: 'failed', statusCode: null });
      expect(String(entry.error)).toMatch(/loopback, private/);
    }
    expect(target.received).toHaveLength(0);
  });
});
