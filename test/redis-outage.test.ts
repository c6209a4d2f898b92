import 'reflect-metadata';
// Redis counts the rate limits when REDIS_URL is set, but Redis away must never
// take the API down: at start or while it runs, requests go on being answered,
// each process counting its budgets itself until Redis is back, and /readyz says
// the service is ready but degraded.
import { afterAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';
import { freePort } from './support/free-port.js';
import { eventually } from './support/receiver.js';
import { startTcpProxy } from './support/tcp-proxy.js';

const REDIS_URL = process.env.REDIS_URL;

// A port nothing listens on.
const nowhere = `redis://127.0.0.1:${await freePort()}`;

describe('Redis unreachable when the service starts', () => {
  const server = useServer({ REDIS_URL: nowhere, RATE_LIMIT_MAX: '3' });

  it('starts, serves, and still limits each credential (counted in this process)', async () => {
    const key = await (await server.org()).key(['crm:read']);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.rest('GET', '/v1/crm/contacts', { key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('is ready, and says that the rate limits are degraded', async () => {
    const res = await server.rest('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', degraded: ['redis'] });
  });
});

// A relay in front of the real Redis, cut and restored as an outage would be.
const redis = REDIS_URL ? new URL(REDIS_URL) : undefined;
const relay = redis ? await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) }) : undefined;
afterAll(async () => relay?.stop());

describe.skipIf(!relay)('Redis going away while the service runs, and coming back', () => {
  const server = useServer({ REDIS_URL: relay ? relay.rewrite(REDIS_URL!) : '', RATE_LIMIT_MAX: '1000' });

  it('answers every request meanwhile, reports degraded, and is whole again once Redis returns', async () => {
    const key = await (await server.org()).key(['crm:read']);
    expect((await server.rest('GET', '/readyz')).body).toEqual({ status: 'ready' });
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);

    await relay!.stop();
    for (let i = 0; i < 20; i++) expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);
    await eventually(async () => (await server.rest('GET', '/readyz')).body.degraded?.[0] === 'redis');

    await relay!.start();
    await eventually(async () => (await server.rest('GET', '/readyz')).body.degraded === undefined, 15_000);
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);
  });
});
