// The server key ring: values sealed under a subkey, bound to their row, named by
// their key's id; and rotating the master key on a running database: stored webhook
// secrets (also those written before key ids existed) move to the new key when the
// worker starts, deliveries keep their signatures, and idempotent retries still replay.
import { createCipheriv, randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sealer } from '../src/auth/sealing.js';
import { ServerKeyRing, UnknownKeyError, derivedKeyId } from '../src/auth/server-keys.js';
import { startWorker, type Worker } from '../src/jobs/worker.js';
import { WebhookSecrets } from '../src/jobs/webhook-secrets.js';
import { createLogger } from '../src/logger.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startReceiver, type Receiver, type Received } from './support/receiver.js';
import { startTestServer, type TestServer } from './support/server.js';

const [K1, K2] = [randomBytes(32), randomBytes(32)];

/** What the service wrote before key ids: `v1.iv.tag.ciphertext` under the master key itself, bound to nothing. */
function legacySeal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64')).join('.');
}

const verifies = (secret: string, request: Received) => {
  try {
    new StandardWebhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
};

describe('sealing', () => {
  const ring = new ServerKeyRing({ id: 'k2', key: K2 }, [{ id: 'k1', key: K1 }]);

  it('names the key, binds the value to its context and opens it under a previous key', () => {
    const old = new Sealer(new ServerKeyRing({ id: 'k1', key: K1 }), 'webhook-secret');
    const sealed = old.seal('whsec_abc', 'whk_a');
    expect(sealed).toMatch(/^v2\.k1\./);
    expect(sealed).not.toContain('abc');
    const sealer = new Sealer(ring, 'webhook-secret');
    expect(sealer.open(sealed, 'whk_a')).toBe('whsec_abc');
    expect(() => sealer.open(sealed, 'whk_b')).toThrow();
    // A subkey per purpose: a value sealed for one use does not open for another.
    expect(() => new Sealer(ring, 'idempotency-answer').open(sealed, 'whk_a')).toThrow();
    expect(() => new Sealer(new ServerKeyRing({ id: 'k2', key: K2 }), 'webhook-secret').open(sealed, 'whk_a')).toThrow(
      UnknownKeyError,
    );
    expect(sealer.seal('x', 'c').startsWith(sealer.currentPrefix())).toBe(true);
    expect(sealer.currentPrefix()).toBe('v2.k2.');
  });

  it('still opens webhook secrets of the v1 form, under whichever configured key wrote them', () => {
    const secrets = new WebhookSecrets(ring);
    expect(secrets.open('whk_any', legacySeal(K1, 'whsec_old'))).toBe('whsec_old');
    expect(secrets.open('whk_any', legacySeal(K2, 'whsec_new'))).toBe('whsec_new');
    expect(() => secrets.open('whk_any', legacySeal(randomBytes(32), 'whsec_lost'))).toThrow();
  });

  it('derives a stable id for a key given without one', () => {
    expect(derivedKeyId(K1)).toBe(derivedKeyId(Buffer.from(K1)));
    expect(derivedKeyId(K1)).not.toBe(derivedKeyId(K2));
    expect(derivedKeyId(K1)).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('rotating the master key', () => {
  let database: TestDatabase;
  const open: { close(): Promise<void> }[] = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const thing of open.reverse()) await thing.close();
    for (const receiver of receivers) await receiver.close();
    await database.drop();
  });

  const serverWith = async (env: Record<string, string>): Promise<TestServer> => {
    const server = await startTestServer({ RATE_LIMIT_MAX: '1000000', ...env }, database);
    open.push(server);
    return server;
  };
  const workerFor = async (server: TestServer): Promise<Worker> => {
    const worker = await startWorker({
      config: server.config,
      databaseUrl: server.databaseUrl,
      logger: createLogger(server.config),
      pollIntervalMs: 50,
    });
    open.push({ close: () => worker.stop() });
    return worker;
  };
  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };
  const sealedSecrets = async (server: TestServer) =>
    (await server.prisma.webhook.findMany({ orderBy: { id: 'asc' } })).map((row) => row.secretEncrypted);

  it('keeps every signature and every replay across the rotation, then lets the old key go', async () => {
    // Before: the key `k1`; one webhook sealed by this release, one as the last release sealed it.
    const before = await serverWith({ WEBHOOK_SECRET_KEY: `k1:${K1.toString('base64')}` });
    const organizationId = await before.createOrganization();
    const admin = await before.createKey(organizationId, ['admin']);
    const [current, legacy] = [await receiver(), await receiver()];
    const subscribe = async (url: string) =>
      (await before.request('POST', '/v1/webhooks', { key: admin, body: { url, events: ['contact.created'] } })).body;
    const a = await subscribe(current.url);
    const b = await subscribe(legacy.url);
    const legacySecret = 'whsec_' + randomBytes(24).toString('base64');
    await before.prisma.webhook.update({
      where: { id: b.id },
      data: { secretEncrypted: legacySeal(K1, legacySecret) },
    });
    const idempotent = (server: TestServer) =>
      server.request('POST', '/v1/api-keys', {
        key: admin,
        body: { name: 'made before the rotation', scopes: ['crm:read'] },
        headers: { 'idempotency-key': 'across-rotation' },
      });
    const issued = await idempotent(before);
    expect(issued.status, issued.text).toBe(201);

    // The rotation: `k2` is current, `k1` listed as previous. The worker seals everything again at start.
    const during = await serverWith({
      WEBHOOK_SECRET_KEY: `k2:${K2.toString('base64')}`,
      WEBHOOK_SECRET_PREVIOUS_KEYS: `k1:${K1.toString('base64')}`,
    });
    const duringWorker = await workerFor(during);
    for (const sealed of await sealedSecrets(during)) expect(sealed).toMatch(/^v2\.k2\./);
    const replayed = await idempotent(during);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(issued.body);
    for (const id of [a.id, b.id]) {
      expect((await during.request('POST', `/v1/webhooks/${id}/test`, { key: admin })).status).toBe(200);
    }
    expect(verifies(a.secret, (await current.waitFor(1))[0]!)).toBe(true);
    expect(verifies(legacySecret, (await legacy.waitFor(1))[0]!)).toBe(true);

    // After: `k1` gone; deliveries are signed as before.
    await duringWorker.stop();
    const after = await serverWith({ WEBHOOK_SECRET_KEY: `k2:${K2.toString('base64')}` });
    await workerFor(after);
    for (const id of [a.id, b.id]) {
      expect((await after.request('POST', `/v1/webhooks/${id}/test`, { key: admin })).status).toBe(200);
    }
    expect(verifies(a.secret, (await current.waitFor(2))[1]!)).toBe(true);
    expect(verifies(legacySecret, (await legacy.waitFor(2))[1]!)).toBe(true);
  });
});
