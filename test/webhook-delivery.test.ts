import 'reflect-metadata';
// Webhook delivery end to end, against real receivers on loopback: every event
// type the domain raises arrives signed as the specification says (checked by
// recomputing the HMAC and by the standardwebhooks package, unmodified); failed
// attempts are retried on the schedule with the same event id; timeouts and
// redirects count as failures; 410 and a run of exhausted events disable the
// endpoint; a rolled-back change delivers nothing; organizations never see each
// other's events; a subscriber gets only the types it asked for.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../src/auth/principal.js';
import { emitEvent } from '../src/events/emit.js';
import { useServer } from './support/fixtures.js';
import {
  eventually,
  expectServiceSignature,
  sleep,
  useReceivers,
  useWorker,
  type Received,
  type Receiver,
} from './support/receiver.js';

const RETRY_BASE_MS = 150;
const TIMEOUT_MS = 800;
const server = useServer({
  RATE_LIMIT_MAX: '1000000',
  WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  WEBHOOK_DISABLE_AFTER_FAILURES: '2',
});
useWorker(server);
const receiver = useReceivers();

interface Subscription {
  id: string;
  secret: string;
}

async function tenant() {
  const org = await server.org();
  return { org, key: await org.key(['admin']) };
}

async function subscribe(key: string, target: Receiver, events: string[]): Promise<Subscription> {
  const res = await server.rest('POST', '/v1/webhooks', { key, body: { url: target.url, events } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function createContact(key: string, email = `c-${Math.random().toString(36).slice(2)}@example.test`) {
  const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { email, firstName: 'Ada' } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

async function deliveries(key: string, webhookId: string, query = '') {
  const res = await server.rest('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Record<string, unknown>[];
}

async function webhook(key: string, id: string) {
  const res = await server.rest('GET', `/v1/webhooks/${id}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const envelope = (request: Received) => JSON.parse(request.body);

describe('signature and envelope', () => {
  it('delivers every event type the domain raises, signed over the exact bytes sent, as GET /v1/events shows it', async () => {
    const { key } = await tenant();
    const target = await receiver();
    const types = [
      'contact.created',
      'contact.updated',
      'deal.created',
      'deal.stage_changed',
      'deal.closed',
      'api_key.created',
    ];
    const { secret } = await subscribe(key, target, types);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const contact = await createContact(key);
    expect(
      (await server.rest('PUT', `/v1/crm/contacts/${contact.id}`, { key, body: { company: 'Acme' } })).status,
    ).toBe(200);
    const deal = await server.rest('POST', '/v1/crm/deals', {
      key,
      body: { title: 'Big', amount: 500, currency: 'EUR' },
    });
    expect(deal.status).toBe(201);
    expect(
      (await server.rest('PUT', `/v1/crm/deals/${deal.body.id}`, { key, body: { stage: 'qualified' } })).status,
    ).toBe(200);
    expect((await server.rest('PUT', `/v1/crm/deals/${deal.body.id}`, { key, body: { stage: 'won' } })).status).toBe(
      200,
    );
    expect((await server.rest('POST', '/v1/api-keys', { key, body: { name: 'k', scopes: ['crm:read'] } })).status).toBe(
      201,
    );

    // contact.created, contact.updated, deal.created, 2 x deal.stage_changed, deal.closed, api_key.created
    const requests = await target.waitFor(7);
    await sleep(300);
    expect(target.received).toHaveLength(7);
    const verifier = new StandardWebhook(secret);
    const seen: string[] = [];
    for (const request of requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBeTruthy();
      expectServiceSignature(request, secret);
      // The independent verifier, as a receiver would use it.
      const verified = verifier.verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      });
      const body = envelope(request);
      expect(verified).toEqual(body);
      expect(Object.keys(body).sort()).toEqual(['actor', 'created', 'data', 'id', 'type']);
      expect(request.headers['webhook-id']).toBe(body.id);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      const event = await server.rest('GET', `/v1/events/${body.id}`, { key });
      expect(event.status).toBe(200);
      expect(body).toEqual(event.body);
      seen.push(body.type);
    }
    expect(seen.sort()).toEqual([...types, 'deal.stage_changed'].sort());
    const created = requests.map(envelope).find((body) => body.type === 'contact.created');
    expect(created.data.object.id).toBe(contact.id);
    const updated = requests.map(envelope).find((body) => body.type === 'contact.updated');
    expect(updated.data.previousAttributes).toMatchObject({ company: null });
  });

  it('refuses a signature made with another secret or over other bytes', async () => {
    const { key } = await tenant();
    const target = await receiver();
    const { secret } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    const [request] = await target.waitFor(1);
    const headers = {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    };
    const other = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    expect(() => new StandardWebhook(other).verify(request!.body, headers)).toThrow();
    expect(() => new StandardWebhook(secret).verify(request!.body + ' ', headers)).toThrow();
    expect(() => expectServiceSignature({ ...request!, body: request!.body.replace('Ada', 'Bob') }, secret)).toThrow();
  });
});

describe('fan-out', () => {
  it('delivers only the types a subscriber asked for, and never another organization’s events', async () => {
    const a = await tenant();
    const b = await tenant();
    const contactsOfA = await receiver();
    const dealsOfA = await receiver();
    const contactsOfB = await receiver();
    await subscribe(a.key, contactsOfA, ['contact.created']);
    await subscribe(a.key, dealsOfA, ['deal.created']);
    await subscribe(b.key, contactsOfB, ['contact.created']);

    const contact = await createContact(a.key);
    const [request] = await contactsOfA.waitFor(1);
    expect(envelope(request!).data.object.id).toBe(contact.id);
    await sleep(500);
    expect(contactsOfA.received).toHaveLength(1);
    expect(dealsOfA.received).toHaveLength(0);
    expect(contactsOfB.received).toHaveLength(0);
  });

  it('queues nothing for a change that rolls back, and the job with the change that commits', async () => {
    const { org, key } = await tenant();
    const target = await receiver();
    await subscribe(key, target, ['contact.created']);
    const object = { id: 'con_00000000000000000000000000', email: 'x@example.test' };
    await expect(
      server.prisma.$transaction(async (tx) => {
        await emitEvent(tx, { organizationId: org.id, type: 'contact.created', object, actor: SYSTEM_ACTOR });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const committed = await server.prisma.$transaction((tx) =>
      emitEvent(tx, { organizationId: org.id, type: 'contact.created', object, actor: SYSTEM_ACTOR }),
    );
    const [request] = await target.waitFor(1);
    expect(envelope(request!).id).toBe(committed.id);
    await sleep(500);
    expect(target.received).toHaveLength(1);
    const events = await server.prisma.event.count({ where: { organizationId: org.id, type: 'contact.created' } });
    expect(events).toBe(1);
  });

  it('costs one index probe per event when nobody subscribes', async () => {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `explain select 1 from "Webhook" w where w."organizationId" = 'org_x' and w.status = 'enabled' and w.events @> array['contact.created']`,
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
        /Index Scan using "Webhook_enabled_organizationId_idx"/,
      );
    } finally {
      await client.end();
    }
  });
});

describe('kept-alive connections', () => {
  it('sends again on a new connection when the receiver drops a kept-alive one as a delivery goes out', async () => {
    const { key } = await tenant();
    // Each connection answers its first request and is dropped, unanswered, at its
    // second: what a receiver closing an idle connection does at the wrong moment.
    const answered: string[] = [];
    const requestsOn = new WeakMap<object, number>();
    const dropping = http.createServer((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      if (n > 1) return req.socket.destroy();
      req.resume().on('end', () => {
        answered.push(String(req.headers['webhook-id']));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/hook`;
      const res = await server.rest('POST', '/v1/webhooks', { key, body: { url, events: ['contact.created'] } });
      expect(res.status, res.text).toBe(201);
      for (let i = 1; i <= 3; i++) {
        await createContact(key);
        await eventually(async () => answered.length === i);
      }
      const log = await eventually(async () => {
        const rows = await deliveries(key, res.body.id);
        return rows.length === 3 ? rows : undefined;
      });
      expect(log.map((row) => [row.attempt, row.status])).toEqual([
        [1, 'succeeded'],
        [1, 'succeeded'],
        [1, 'succeeded'],
      ]);
      expect(new Set(answered).size).toBe(3);
    } finally {
      dropping.closeAllConnections();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});

describe('many events at once', () => {
  it('sends each of a burst on its own, signed, and retries only the ones that failed', async () => {
    const { org, key } = await tenant();
    const failing = new Set<string>();
    const target = await receiver((request) => {
      const id = envelope(request).id as string;
      return failing.has(id) && target.received.filter((r) => envelope(r).id === id).length === 1
        ? { status: 500 }
        : { status: 200 };
    });
    const { id, secret } = await subscribe(key, target, ['contact.created']);
    // More events than one delivery job takes, committed together.
    const events = await server.prisma.$transaction(async (tx) => {
      const emitted = [];
      for (let n = 0; n < 120; n++) {
        const object = { id: `con_${String(n).padStart(26, '0')}`, email: `burst-${n}@example.test` };
        emitted.push(
          await emitEvent(tx, { organizationId: org.id, type: 'contact.created', object, actor: SYSTEM_ACTOR }),
        );
      }
      return emitted;
    });
    events.filter((_event, n) => n % 3 === 0).forEach((event) => failing.add(event.id));

    await target.waitFor(160);
    await sleep(RETRY_BASE_MS * 3);
    expect(target.received).toHaveLength(160);
    const byEvent = new Map<string, Received[]>();
    for (const request of target.received) {
      expectServiceSignature(request, secret);
      const body = envelope(request);
      byEvent.set(body.id, [...(byEvent.get(body.id) ?? []), request]);
    }
    for (const [n, event] of events.entries()) {
      const requests = byEvent.get(event.id) ?? [];
      expect(requests, event.id).toHaveLength(n % 3 === 0 ? 2 : 1);
      expect(envelope(requests[0]!).data.object.email).toBe(`burst-${n}@example.test`);
    }
    const log = await eventually(async () => {
      const rows = [...(await deliveries(key, id)), ...(await deliveries(key, id, '&page=2'))];
      return rows.length === 160 ? rows : undefined;
    });
    const attempts = (eventId: string) =>
      log.filter((row) => row.eventId === eventId).map((row) => [row.attempt, row.status]);
    expect(attempts(events[0]!.id)).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
    expect(attempts(events[1]!.id)).toEqual([[1, 'succeeded']]);
    expect(log.filter((row) => row.status === 'failed')).toHaveLength(40);
  });
});

describe('retries', () => {
  it('gives a receiver that always fails exactly 4 attempts, with growing gaps and the same event id', async () => {
    const { key } = await tenant();
    const target = await receiver(() => ({ status: 500, body: 'down for maintenance' }));
    const { id } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    const requests = await target.waitFor(4, 15_000);
    await sleep(RETRY_BASE_MS * 20);
    expect(target.received).toHaveLength(4);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    const gaps = requests.slice(1).map((request, i) => request.at - requests[i]!.at);
    // base x 1, 4, 16, each +-10% (plus polling).
    expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.9 - 20);
    expect(gaps[1]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 4 * 0.9 - 20);
    expect(gaps[2]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 16 * 0.9 - 20);
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]!).toBeGreaterThan(gaps[1]!);

    const log = await eventually(async () => {
      const rows = await deliveries(key, id);
      return rows.length === 4 ? rows : undefined;
    });
    expect(log.map((row) => row.attempt)).toEqual([1, 2, 3, 4]);
    for (const row of log) {
      expect(row).toMatchObject({
        webhookId: id,
        eventId: requests[0]!.headers['webhook-id'],
        eventType: 'contact.created',
        trigger: 'event',
        status: 'failed',
        statusCode: 500,
        error: 'HTTP 500',
        responseExcerpt: 'down for maintenance',
      });
      expect(row.durationMs).toEqual(expect.any(Number));
    }
    expect(log.slice(0, 3).every((row) => typeof row.nextAttemptAt === 'string')).toBe(true);
    expect(log[3]!.nextAttemptAt).toBeNull();
  });

  it('gives a receiver that recovers on the 3rd attempt exactly 3', async () => {
    const { key } = await tenant();
    const target = await receiver((_request, n) => (n < 3 ? { status: 503 } : { status: 200 }));
    const { id } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    await target.waitFor(3);
    await sleep(RETRY_BASE_MS * 16 * 1.5);
    expect(target.received).toHaveLength(3);
    const log = await deliveries(key, id);
    expect(log.map((row) => [row.attempt, row.status, row.statusCode])).toEqual([
      [1, 'failed', 503],
      [2, 'failed', 503],
      [3, 'succeeded', 200],
    ]);
  });

  it('counts an answer slower than WEBHOOK_TIMEOUT_MS as failed, and retries', async () => {
    const { key } = await tenant();
    const target = await receiver((_request, n) => (n === 1 ? { delayMs: TIMEOUT_MS + 700 } : {}));
    const { id } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    await target.waitFor(2);
    const log = await eventually(async () => {
      const rows = await deliveries(key, id);
      return rows.length === 2 ? rows : undefined;
    });
    expect(log[0]).toMatchObject({ attempt: 1, status: 'failed', statusCode: null });
    expect(String(log[0]!.error)).toMatch(/timed out/);
    expect(log[0]!.durationMs as number).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(log[1]).toMatchObject({ attempt: 2, status: 'succeeded', statusCode: 200 });
  });

  it('never follows a redirect: it is a failed attempt', async () => {
    const { key } = await tenant();
    const elsewhere = await receiver();
    const target = await receiver((_request, n) =>
      n === 1 ? { status: 302, headers: { location: elsewhere.url } } : { status: 200 },
    );
    const { id } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    await target.waitFor(2);
    const log = await deliveries(key, id);
    expect(log[0]).toMatchObject({ attempt: 1, status: 'failed', statusCode: 302 });
    expect(String(log[0]!.error)).toMatch(/redirect/);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('honours a Retry-After (within reason) over the backoff', async () => {
    const { key } = await tenant();
    const target = await receiver((_request, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : {}));
    await subscribe(key, target, ['contact.created']);
    await createContact(key);
    const [first, second] = await target.waitFor(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('endpoint health', () => {
  it('disables an endpoint that answers 410 Gone at once; a disabled one receives nothing until re-enabled', async () => {
    const { key } = await tenant();
    let gone = true;
    const target = await receiver(() => (gone ? { status: 410 } : {}));
    const { id } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    await target.waitFor(1);
    const disabled = await eventually(async () => {
      const record = await webhook(key, id);
      return record.status === 'disabled' ? record : undefined;
    });
    expect(disabled.disabledReason).toMatch(/410/);
    expect(Date.parse(disabled.disabledAt)).toBeGreaterThan(Date.now() - 60_000);

    gone = false;
    await createContact(key);
    await sleep(RETRY_BASE_MS * 4);
    expect(target.received).toHaveLength(1);

    const enabled = await server.rest('PUT', `/v1/webhooks/${id}`, { key, body: { status: 'enabled' } });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'enabled', disabledReason: null, disabledAt: null });
    const contact = await createContact(key);
    const requests = await target.waitFor(2);
    expect(envelope(requests[1]!).data.object.id).toBe(contact.id);
  });

  it('disables an endpoint after WEBHOOK_DISABLE_AFTER_FAILURES events in a row failed every attempt', async () => {
    const { key } = await tenant();
    const target = await receiver(() => ({ status: 500 }));
    const { id } = await subscribe(key, target, ['contact.created']);
    await createContact(key);
    await target.waitFor(4, 15_000);
    await eventually(async () => (await deliveries(key, id)).length === 4);
    expect((await webhook(key, id)).status).toBe('enabled');
    await createContact(key);
    await target.waitFor(8, 15_000);
    const disabled = await eventually(async () => {
      const record = await webhook(key, id);
      return record.status === 'disabled' ? record : undefined;
    });
    expect(disabled.disabledReason).toMatch(/2 events in a row/);
    await createContact(key);
    await sleep(RETRY_BASE_MS * 4);
    expect(target.received).toHaveLength(8);
  });
});
