// The /v1 direct lane serves route rows before Express, on Node's own request and
// response (src/rest/direct-lane.ts). A client must not be able to tell: the same
// request answered by the lane and by Express's stack gives the same status,
// headers and body. A URL with a fragment (`#`, which parseurl treats apart) is one
// the lane leaves to Express, which routes it to the same row: the pairs below
// differ only in that.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg } from './support/fixtures.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';

const server = useServer({ TRUST_PROXY: 'loopback' });
let org: TestOrg;
let key: string;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['crm:read', 'crm:write']);
  await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'ada@example.com', firstName: 'Ada' } });
});

interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

function send({ method = 'GET', path, headers = {}, body }: Call): Promise<RawResponse> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: lane.test',
    'Connection: close',
    ...Object.entries({
      ...headers,
      ...(body !== undefined && {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(text)),
      }),
    }).map(([name, value]) => `${name}: ${value}`),
  ];
  return rawRequest(server.url, `${lines.join('\r\n')}\r\n\r\n${text}`);
}

/** What a client sees, less what differs from one answer to the next anyway. */
function seen(res: RawResponse) {
  const headers = Object.fromEntries(
    Object.entries(res.headers).filter(([name]) => !['date', 'ratelimit-remaining'].includes(name)),
  );
  return { status: res.status, headers, text: res.text };
}

/** The call answered by the lane, then by Express (the same URL with an empty fragment). */
async function bothWays(call: Call): Promise<[ReturnType<typeof seen>, ReturnType<typeof seen>]> {
  const lane = seen(await send(call));
  const express = seen(await send({ ...call, path: `${call.path}#` }));
  // RateLimit-Reset counts down whole seconds: the second answer may come after a second's boundary.
  const [laneReset, expressReset] = [lane, express].map((answer) => Number(answer.headers['ratelimit-reset']));
  if (Math.abs(laneReset! - expressReset!) === 1) express.headers['ratelimit-reset'] = lane.headers['ratelimit-reset']!;
  return [lane, express];
}

describe('a /v1 route row answered by the direct lane and by Express', () => {
  it('lists alike', async () => {
    const [lane, express] = await bothWays({
      path: '/v1/crm/contacts?limit=1',
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(lane.status).toBe(200);
    expect(JSON.parse(lane.text).data[0].email).toBe('ada@example.com');
    expect(lane).toEqual(express);
  });

  it('answers a conditional GET alike', async () => {
    const headers = { Authorization: `Bearer ${key}`, 'If-None-Match': '*' };
    const [lane, express] = await bothWays({ path: '/v1/crm/contacts?limit=1', headers });
    expect(lane).toEqual(express);
  });

  it('refuses alike: a bad query, an unknown id, no credential, a missing scope', async () => {
    const calls: [Call, number][] = [
      [{ path: '/v1/crm/contacts?limit=abc', headers: { Authorization: `Bearer ${key}` } }, 400],
      [{ path: '/v1/crm/contacts/con_00000000000000000000000000', headers: { Authorization: `Bearer ${key}` } }, 404],
      [{ path: '/v1/crm/contacts' }, 401],
      [{ path: '/v1/hr/employees', headers: { Authorization: `Bearer ${key}` } }, 403],
      [
        { method: 'POST', path: '/v1/crm/contacts', headers: { Authorization: `Bearer ${key}` }, body: { email: 'x' } },
        400,
      ],
    ];
    for (const [call, status] of calls) {
      const [lane, express] = await bothWays(call);
      expect(lane.status, `${call.method ?? 'GET'} ${call.path}`).toBe(status);
      expect(lane, `${call.method ?? 'GET'} ${call.path}`).toEqual(express);
    }
  });

  it('believes a trusted proxy alike: HSTS for https, the forwarded address for budgets', async () => {
    const headers = { Authorization: `Bearer ${key}`, 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' };
    const [lane, express] = await bothWays({ path: '/v1/crm/contacts?limit=1', headers });
    expect(lane.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    expect(lane).toEqual(express);
  });

  it('replays an Idempotency-Key across the two: the request is the same request', async () => {
    const call = {
      method: 'POST',
      path: '/v1/crm/contacts',
      headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': 'lane-parity-1' },
      body: { email: 'grace@example.com', firstName: 'Grace' },
    };
    const created = await send(call);
    expect(created.status, created.text).toBe(201);
    const replayed = await send({ ...call, path: `${call.path}#` });
    expect(replayed.status, replayed.text).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.text).toBe(created.text);
  });
});
