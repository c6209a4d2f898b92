// The shared HTTP layer under hostile or unlucky conditions: bodies that lie
// about their encoding or length, requests Node's parser refuses, stalled
// clients, clients without credentials, a database that is stopped, saturated
// or slow. Every answer is in the envelope (or GraphQL's shape on /graphql),
// never a 500 and never silence.
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { configureHttpServer } from '../src/http/server-options.js';
import { clientAddressKey } from '../src/http/client-address.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { useServer, type TestResponse } from './support/fixtures.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';
import { startTestServer, type TestServer } from './support/server.js';
import { eventually } from './support/receiver.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const MiB = 1024 * 1024;
const LEAKS =
  /relation|does not exist|public\.|select |insert |prisma|postgres|at \w+ \(|\.ts:\d+|ECONN|timeout exceeded/i;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A REST error in the envelope, with nothing else in the body. */
function expectEnvelope(res: TestResponse | RawResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(res.text).not.toMatch(LEAKS);
}

/** A 503 with Retry-After in the header and the body, agreeing. */
function expectUnavailable(res: TestResponse) {
  expectEnvelope(res, 503, 'SERVICE_UNAVAILABLE');
  const retryAfter = res.body.error.retryAfter as number;
  expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
  expect(res.headers.get('Retry-After')).toBe(String(retryAfter));
}

describe('Content-Encoding on request bodies', () => {
  const server = useServer();
  let key: string;

  beforeAll(async () => {
    key = await (await server.org()).key(['crm:read', 'crm:write']);
  });

  const send = (method: string, path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });

  it.each(['gzip', 'deflate', 'br'])(
    'answers a body labelled %s that is not so encoded with 400 naming Content-Encoding, over REST and GraphQL',
    async (encoding) => {
      const email = `plain-${encoding}@example.com`;
      const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: `put-${email}` } });
      for (const [method, path, body] of [
        ['POST', '/v1/crm/contacts', { email }],
        ['PUT', `/v1/crm/contacts/${created.body.id}`, { company: 'Plain' }],
      ] as const) {
        const res = await send(method, path, JSON.stringify(body), { 'content-encoding': encoding });
        expect(res.status, method).toBe(400);
        expect(await res.json()).toEqual({
          error: { code: 'VALIDATION_ERROR', message: expect.stringContaining(encoding), field: 'Content-Encoding' },
        });
      }
      const graphql = await send('POST', '/graphql', JSON.stringify({ query: '{ __typename }' }), {
        'content-encoding': encoding,
      });
      expect(graphql.status).toBe(400);
      expect((await graphql.json()).errors[0].extensions).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: 'Content-Encoding',
      });
      expect(await server.prisma.$queryRaw`select id from "Contact" where email = ${email}`).toEqual([]);
    },
  );

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('decodes a %s body, over REST and GraphQL', async (encoding, compress) => {
    const email = `encoded-${encoding}@example.com`;
    const res = await send('POST', '/v1/crm/contacts', compress(JSON.stringify({ email })), {
      'content-encoding': encoding,
    });
    expect(res.status).toBe(201);
    expect((await res.json()).email).toBe(email);
    const graphql = await send('POST', '/graphql', compress(JSON.stringify({ query: '{ __typename }' })), {
      'content-encoding': encoding,
    });
    expect(graphql.status).toBe(200);
    expect((await graphql.json()).data).toEqual({ __typename: 'Query' });
  });

  it('answers any other encoding with 415, over REST and GraphQL', async () => {
    for (const encoding of ['compress', 'zstd', 'gzip, br', 'x-gzip']) {
      const body = JSON.stringify({ email: 'other-encoding@example.com' });
      const res = await send('POST', '/v1/crm/contacts', body, { 'content-encoding': encoding });
      expect(res.status, encoding).toBe(415);
      expect((await res.json()).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'Content-Encoding' });
      const graphql = await send('POST', '/graphql', JSON.stringify({ query: '{ __typename }' }), {
        'content-encoding': encoding,
      });
      expect(graphql.status, encoding).toBe(415);
      expect((await graphql.json()).errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('stops a decompression bomb at the body limit, not in memory, over REST and GraphQL', async () => {
    // 256 MiB of zeros as 256 concatenated gzip members of 1 MiB each (RFC 1952 allows it): 256 KiB on the wire.
    const bomb = Buffer.concat(Array.from({ length: 256 }, () => gzipSync(Buffer.alloc(MiB), { level: 9 })));
    expect(bomb.length).toBeLessThan(server.config.bodyLimitBytes);
    for (const path of ['/v1/crm/contacts', '/graphql']) {
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const res = await send('POST', path, bomb, { 'content-encoding': 'gzip' });
      expect(performance.now() - started, path).toBeLessThan(5000);
      expect(res.status, path).toBe(413);
      const body = await res.json();
      expect(path === '/graphql' ? body.errors[0].extensions.code : body.error.code).toBe('PAYLOAD_TOO_LARGE');
      // The server runs in this process: decoding the bomb would have grown it by 256 MiB.
      expect(process.memoryUsage().rss - rssBefore, path).toBeLessThan(96 * MiB);
    }
  });
});

describe('a declared Content-Length above BODY_LIMIT_BYTES', () => {
  const server = useServer();
  let key: string;

  beforeAll(async () => {
    key = await (await server.org()).key(['crm:read', 'crm:write']);
  });

  const head = (path: string, withKey: boolean) =>
    `POST ${path} HTTP/1.1\r\nHost: test\r\n${withKey ? `Authorization: Bearer ${key}\r\n` : ''}` +
    `Content-Type: application/json\r\nContent-Length: ${10 * MiB}\r\n\r\n{"email":`;

  it.each([
    ['/v1/crm/contacts', true],
    ['/v1/crm/contacts', false],
    ['/graphql', true],
    ['/graphql', false],
  ])('is answered 413 at once, before the body is read (%s, with a key: %s)', async (path, withKey) => {
    const res = await rawRequest(server.url, head(path, withKey), { waitMs: 3000 });
    expect(res.status).toBe(413);
    expect(res.ms).toBeLessThan(1000);
    const code = path === '/graphql' ? res.body.errors[0].extensions.code : res.body.error.code;
    expect(code).toBe('PAYLOAD_TOO_LARGE');
    // The unread body cannot be skipped on this connection: the server closes it.
    expect(res.headers.connection).toBe('close');
    expect(res.closed).toBe(true);
  });

  it('is answered 413 instead of 100 Continue when the client asks first', async () => {
    const res = await rawRequest(
      server.url,
      `POST /v1/crm/contacts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${10 * MiB}\r\nExpect: 100-continue\r\n\r\n`,
      { waitMs: 3000 },
    );
    expect(res.status).toBe(413);
    expect(res.ms).toBeLessThan(1000);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    // Within the limit, the body is invited as usual.
    const small = await rawRequest(
      server.url,
      `POST /v1/crm/contacts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 30\r\nExpect: 100-continue\r\n\r\n',
      { waitMs: 3000 },
    );
    expect(small.status).toBe(100);
  });
});

describe("errors Node's HTTP parser finds", () => {
  const server = useServer();
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n', 400],
    ['a space in a header name', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400],
    ['an unknown method', 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['NUL in the path', bytes('GET /v1/a', [0], 'b HTTP/1.1\r\nHost: x\r\n\r\n'), 400],
    ['invalid UTF-8 in the path', bytes('GET /v1/', [0xff, 0xfe], ' HTTP/1.1\r\nHost: x\r\n\r\n'), 400],
    ['Content-Length: -1', 'POST /v1/crm/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', 400],
    [
      'two different Content-Lengths',
      'POST /v1/crm/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}',
      400,
    ],
    ['headers over 16 KB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431],
    ['a URL over 16 KB', `GET /healthz?${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
  ] as const)('answers %s in the envelope', async (_name, request, status) => {
    const res = await rawRequest(server.url, request);
    expectEnvelope(res, status, status === 431 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.closed).toBe(true);
  });

  it.each([
    ['headers over 16 KB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n', 400],
  ] as const)('answers %s on a kept-alive connection too, after an answer on it', async (_name, request, status) => {
    // Found by the fuzz test: a client's pooled connection had already carried an answer.
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!received.includes('{"status":"ok"}')) await sleep(10);
    socket.write(request);
    await closed;
    const second = received.slice(received.indexOf('{"status":"ok"}') + '{"status":"ok"}'.length);
    expect(second).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4));
    expect(body.error.code).toBe(status === 431 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR');
  });
});

describe('answers Node would write with an empty body, or none', () => {
  const server = useServer();

  it('answers an HTTP/1.1 request without Host with 400 in the envelope naming Host, and closes', async () => {
    for (const path of ['/healthz', '/v1/crm/contacts', '/graphql', '/oauth/token']) {
      const res = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\n\r\n`);
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.field).toBe('Host');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.closed).toBe(true);
    }
    // HTTP/1.0 may leave it out.
    const old = await rawRequest(server.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
    expect(old.body).toEqual({ status: 'ok' });
  });

  it.each([
    [
      'an Expect other than 100-continue',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n',
      417,
      'VALIDATION_ERROR',
    ],
    [
      'CONNECT (this is no proxy)',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      405,
      'METHOD_NOT_ALLOWED',
    ],
    ['an HTTP version that is not 1.x', 'GET /healthz HTTP/3.0\r\nHost: x\r\n\r\n', 505, 'VALIDATION_ERROR'],
  ] as const)('answers %s in the envelope, and closes', async (_name, request, status, code) => {
    const res = await rawRequest(server.url, request);
    expectEnvelope(res, status, code);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    if (status === 405) expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE');
    expect(res.closed).toBe(true);
  });
});

describe('server timeouts', () => {
  it('are the documented defaults', () => {
    const server = http.createServer();
    configureHttpServer(server, parseConfig({}));
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(65_000);
  });

  describe('with HTTP_HEADERS_TIMEOUT_S=1 and HTTP_REQUEST_TIMEOUT_S=2', () => {
    const server = useServer({ HTTP_HEADERS_TIMEOUT_S: '1', HTTP_REQUEST_TIMEOUT_S: '2' });
    let key: string;

    beforeAll(async () => {
      key = await (await server.org()).key(['crm:read', 'crm:write']);
    });

    it('answers headers that stall with 408 in the envelope and closes the connection', async () => {
      const res = await rawRequest(server.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', { waitMs: 5000 });
      expectEnvelope(res, 408, 'VALIDATION_ERROR');
      expect(res.ms).toBeGreaterThan(900);
      expect(res.ms).toBeLessThan(3000);
      expect(res.closed).toBe(true);
    });

    it('answers a body that stalls with 408 in the envelope and closes the connection', async () => {
      const res = await rawRequest(
        server.url,
        `POST /v1/crm/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
        { waitMs: 6000 },
      );
      expectEnvelope(res, 408, 'VALIDATION_ERROR');
      expect(res.ms).toBeGreaterThan(1900);
      expect(res.ms).toBeLessThan(4000);
      expect(res.closed).toBe(true);
    });
  });
});

describe('security headers', () => {
  const server = useServer();
  let key: string;

  beforeAll(async () => {
    key = await (await server.org()).key(['crm:read', 'crm:write']);
  });

  it('on every answer: no sniffing, no referrer, no framing; HSTS only under TLS', async () => {
    const answers = [
      await server.rest('GET', '/healthz'),
      await server.rest('GET', '/nowhere'),
      await server.rest('GET', '/v1/openapi.json'),
      await server.rest('GET', '/v1/crm/contacts'),
      await server.rest('GET', '/v1/crm/contacts', { key }),
      await server.gql('{ __typename }'),
    ];
    for (const res of answers) {
      expect(res.headers.get('X-Content-Type-Options'), res.text).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
      expect(res.headers.get('X-Frame-Options')).toBe('DENY');
      expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('Strict-Transport-Security')).toBeNull();
      expect(res.headers.get('X-Powered-By')).toBeNull();
    }
    // Behind a TLS-terminating proxy the service trusts (loopback here), the request was made over TLS.
    const tls = await server.rest('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers.get('Strict-Transport-Security')).toMatch(/^max-age=\d{7,}/);
  });

  it('Cache-Control: no-store on every answer to a credential, success or not, over REST and GraphQL', async () => {
    const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'cache@example.com' } });
    const answers = [
      created,
      await server.rest('GET', `/v1/crm/contacts/${created.body.id}`, { key }),
      await server.rest('GET', '/v1/crm/contacts', { key }),
      await server.rest('GET', '/v1/crm/contacts/con_missing', { key }),
      await server.rest('GET', '/v1/crm/contacts', { key: 'bpk_not_a_real_key' }),
      await server.gql('{ contacts { data { id } } }', undefined, { key }),
    ];
    for (const res of answers) expect(res.headers.get('Cache-Control'), res.text).toBe('no-store');
  });
});

describe('requests without a valid credential', () => {
  const server = useServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it("share a budget per client address, by default the size of a credential's, on every path", async () => {
    const headers = from('203.0.113.7');
    const counted = [
      await server.rest('GET', '/v1/openapi.json', { headers }),
      await server.rest('GET', '/v1/crm/contacts', { headers }),
      await server.gql('{ __typename }', undefined, { headers }),
    ];
    expect(counted.map((res) => res.status)).toEqual([200, 401, 200]);
    expect(counted.map((res) => res.headers.get('RateLimit-Remaining'))).toEqual(['2', '1', '0']);
    expect(counted.map((res) => res.headers.get('RateLimit-Limit'))).toEqual(['3', '3', '3']);

    const refused = await server.rest('GET', '/v1/crm/contacts', { headers, key: 'bpk_not_a_real_key' });
    expectEnvelope(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.headers.get('Retry-After')).toBe(String(refused.body.error.retryAfter));
    for (const path of ['/v1/openapi.json', '/readyz', '/nowhere']) {
      expectEnvelope(await server.rest('GET', path, { headers }), 429, 'RATE_LIMIT_EXCEEDED');
    }
    const graphql = await server.gql('{ __typename }', undefined, { headers });
    expect(graphql.status).toBe(429);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(graphql.headers.get('Retry-After')).toMatch(/^\d+$/);

    // Liveness probes are never refused; other addresses and valid credentials have budgets of their own.
    expect((await server.rest('GET', '/healthz', { headers })).status).toBe(200);
    expect((await server.rest('GET', '/v1/crm/contacts', { headers: from('203.0.113.8') })).status).toBe(401);
    const key = await (await server.org()).key(['crm:read']);
    const keyed = await server.rest('GET', '/v1/crm/contacts', { headers, key });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('RateLimit-Remaining')).toBe('2');
  });

  it('count an IPv6 client by its /64, which one client holds', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await server.rest('GET', '/v1/openapi.json', { headers: from(`2001:db8:7:7::${i}`) });
      expect(res.status).toBe(200);
    }
    const res = await server.rest('GET', '/v1/openapi.json', { headers: from('2001:db8:7:7:ffff:1:2:3') });
    expect(res.status).toBe(429);
    expect((await server.rest('GET', '/v1/openapi.json', { headers: from('2001:db8:7:8::1') })).status).toBe(200);
  });

  it('have a setting of their own, RATE_LIMIT_UNAUTHENTICATED_MAX, defaulting to RATE_LIMIT_MAX', () => {
    expect(parseConfig({}).unauthenticatedRateLimit).toEqual({ max: 600, windowSeconds: 60 });
    expect(parseConfig({ RATE_LIMIT_MAX: '5000', RATE_LIMIT_WINDOW_S: '10' }).unauthenticatedRateLimit).toEqual({
      max: 5000,
      windowSeconds: 10,
    });
    expect(
      parseConfig({ RATE_LIMIT_MAX: '5000', RATE_LIMIT_UNAUTHENTICATED_MAX: '20' }).unauthenticatedRateLimit,
    ).toEqual({ max: 20, windowSeconds: 60 });
    expect(() => parseConfig({ RATE_LIMIT_UNAUTHENTICATED_MAX: '0' })).toThrow(/RATE_LIMIT_UNAUTHENTICATED_MAX/);
  });

  it('are keyed by address, IPv4-mapped IPv6 as IPv4 and IPv6 by its /64', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).toBe(clientAddressKey('2001:DB8:1:2::9'));
    expect(clientAddressKey('2001:db8::1')).toBe(clientAddressKey('2001:db8:0:0:ffff::'));
    expect(clientAddressKey('2001:db8:1:2::1')).not.toBe(clientAddressKey('2001:db8:1:3::1'));
    expect(clientAddressKey('::1')).toBe(clientAddressKey('::2'));
    expect(clientAddressKey(undefined)).toBe('unknown');
  });
});

describe('RATE_LIMIT_UNAUTHENTICATED_MAX=1 with RATE_LIMIT_MAX=100', () => {
  const server = useServer({ RATE_LIMIT_MAX: '100', RATE_LIMIT_UNAUTHENTICATED_MAX: '1' });

  it('refuses the second request without a credential and none with one', async () => {
    const key = await (await server.org()).key(['crm:read']);
    expect((await server.rest('GET', '/v1/crm/contacts')).status).toBe(401);
    expectEnvelope(await server.rest('GET', '/v1/crm/contacts'), 429, 'RATE_LIMIT_EXCEEDED');
    for (let i = 0; i < 5; i++) expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);
  });
});

describe('when the database stops under a running server', () => {
  // What the server logs, as JSON lines.
  const logged: { level: number; msg: string; requests?: number }[] = [];
  const logger = pino(
    { level: 'info', base: undefined },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) logged.push(JSON.parse(line));
        done();
      },
    }),
  );
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { hostname, port } = new URL(database.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    server = await startTestServer({}, { url: proxy.rewrite(database.url), drop: async () => {} }, logger);
    key = await server.createKey(await server.createOrganization(), ['crm:read', 'crm:write']);
  });

  afterAll(async () => {
    await proxy?.start().catch(() => {});
    await server?.close();
    await database?.drop();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, never 500, and serves again once it is back', async () => {
    expect((await server.request('GET', '/v1/crm/contacts', { key })).status).toBe(200);
    await proxy.stop();

    expectUnavailable(await server.request('GET', '/v1/crm/contacts', { key }));
    expectUnavailable(await server.request('POST', '/v1/crm/contacts', { key, body: { email: 'down@example.com' } }));
    expectUnavailable(
      await server.request('POST', '/v1/crm/contacts', {
        key,
        body: { email: 'down@example.com' },
        headers: { 'idempotency-key': 'while-down' },
      }),
    );
    // A key this process has not seen cannot be checked: that is not the client's fault either.
    expectUnavailable(await server.request('GET', '/v1/crm/contacts', { key: `bpk_${'x'.repeat(40)}` }));
    expectUnavailable(await server.request('GET', '/readyz'));

    await proxy.start();
    let res: TestResponse | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      res = await server.request('GET', '/v1/crm/contacts', { key });
      if (res.status === 200) break;
      await sleep(100);
    }
    expect(res?.status).toBe(200);
    const created = await server.request('POST', '/v1/crm/contacts', { key, body: { email: 'back@example.com' } });
    expect(created.status).toBe(201);
  });

  it('logs the outage when it starts and when it ends, not once per request it affects', async () => {
    expect((await server.request('GET', '/v1/crm/contacts', { key })).status).toBe(200);
    logged.length = 0;
    await proxy.stop();
    for (let i = 0; i < 40; i++) expectUnavailable(await server.request('GET', '/v1/crm/contacts', { key }));
    await proxy.start();
    await eventually(async () => (await server.request('GET', '/v1/crm/contacts', { key })).status === 200);

    const warnings = logged.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toHaveLength(new Set(warnings.map((line) => line.msg)).size);
    expect(warnings.length).toBeLessThanOrEqual(3); // the 503 and the pool's lost connections, once each
    const over = logged.find((line) => line.msg.startsWith('over: The database is not reachable'));
    expect(over?.requests).toBeGreaterThanOrEqual(40);
  });
});

describe('when every pooled connection is busy', () => {
  const server = useServer({ DATABASE_POOL_SIZE: '1', DATABASE_POOL_TIMEOUT_MS: '250' });

  it('answers 503 with Retry-After after a short wait, never 500, and serves again once one is free', async () => {
    const key = await (await server.org()).key(['crm:read', 'crm:write']);
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);

    // The pool's only connection, held by a long statement.
    const held = server.prisma.$queryRaw`select pg_sleep(2)::text`.then(() => undefined);
    await sleep(150);
    try {
      for (const [method, body] of [
        ['POST', { email: 'busy@example.com' }],
        ['GET', undefined],
      ] as const) {
        const started = performance.now();
        const res = await server.rest(method, '/v1/crm/contacts', { key, body });
        expect(performance.now() - started, method).toBeLessThan(1500);
        expectUnavailable(res);
      }
    } finally {
      await held;
    }
    expect((await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'free@example.com' } })).status).toBe(
      201,
    );
  });
});

describe('a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS', () => {
  const server = useServer({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });

  it('is the API sessions’ statement_timeout (5 s unless set)', async () => {
    expect(parseConfig({}).databaseStatementTimeoutMs).toBe(5000);
    expect(parseConfig({}).databasePoolTimeoutMs).toBe(2000);
    const [row] = await server.prisma.$queryRaw<{ statement_timeout: string }[]>`show statement_timeout`;
    expect(row?.statement_timeout).toBe('300ms');
  });

  it('is cancelled by PostgreSQL and answered 503 with Retry-After', async () => {
    const key = await (await server.org()).key(['crm:read', 'crm:write']);
    const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'slow@example.com' } });
    // Another session holds the row: the update's SELECT ... FOR UPDATE waits on it.
    const locker = new pg.Client({ connectionString: server.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select 1 from "Contact" where id = $1 for update', [created.body.id]);
      const started = performance.now();
      const res = await server.rest('PUT', `/v1/crm/contacts/${created.body.id}`, { key, body: { company: 'Slow' } });
      expect(performance.now() - started).toBeLessThan(2000);
      expectUnavailable(res);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    const res = await server.rest('PUT', `/v1/crm/contacts/${created.body.id}`, { key, body: { company: 'Fast' } });
    expect(res.status).toBe(200);
    expect(res.body.company).toBe('Fast');
  });
});
