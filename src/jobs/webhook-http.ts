// One delivery attempt over HTTP: the signed POST of exact body bytes, with a
// deadline, redirects never followed, and at most RESPONSE_READ_LIMIT bytes of
// the answer read (an excerpt of which goes to the deliveries log).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isForbiddenAddress, publicOnlyLookup } from './url-policy.js';
import { secretKeyBytes } from './webhook-secrets.js';

export const USER_AGENT = 'business-platform-webhooks/1';
/** How much of an answer is read at most; the rest is not waited for. */
export const RESPONSE_READ_LIMIT = 64 * 1024;
/** How much of it the deliveries log keeps. */
export const EXCERPT_LIMIT = 1024;
/** How many of the answer's headers the deliveries log keeps, each value cut to EXCERPT_LIMIT. */
export const RESPONSE_HEADERS_LIMIT = 50;

/** A header as the deliveries log keeps it. */
export interface HeaderPair {
  name: string;
  value: string;
}

export interface SignedHeaders {
  'content-type': string;
  'user-agent': string;
  'x-service-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The specification's X-Service-Signature (hex HMAC-SHA256 of the body keyed with the
 * secret string as shown, prefix included) and the Standard Webhooks headers (base64
 * HMAC-SHA256 of `id.timestamp.body` keyed with the secret's decoded bytes). During a
 * rotation's grace period `previous` (the replaced secret) signs too: webhook-signature
 * then holds both signatures, the new one first, and X-Service-Signature (one value)
 * the new one only.
 */
export function signedHeaders(
  secret: string,
  eventId: string,
  body: string,
  timestamp: number,
  previous?: string,
): SignedHeaders {
  const hex = createHmac('sha256', secret).update(body, 'utf8').digest('hex');
  const standard = (key: string) =>
    'v1,' +
    createHmac('sha256', secretKeyBytes(key)).update(`${eventId}.${timestamp}.${body}`, 'utf8').digest('base64');
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-signature': hex,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': previous ? `${standard(secret)} ${standard(previous)}` : standard(secret),
  };
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
  /** The answer's headers in the order received (RESPONSE_HEADERS_LIMIT of them); null without an answer. */
  headers: HeaderPair[] | null;
  /** A Retry-After the receiver sent, in ms. */
  retryAfterMs: number | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** Production: connect only to checked public addresses. */
  strict: boolean;
}

// Keep-alive: a busy endpoint reuses its connections. A new connection resolves
// (and, strictly, checks) the host again; a reused one was checked when opened.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 50 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 50 }),
  strictHttps: new https.Agent({ keepAlive: true, maxSockets: 50, lookup: publicOnlyLookup as never }),
};

export function postSigned(
  url: string,
  body: string,
  headers: SignedHeaders,
  options: PostOptions,
): Promise<AttemptResult> {
  let started = performance.now(); // reset when a connection is free: the receiver's time
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null): AttemptResult => ({
    ok: false,
    statusCode,
    durationMs: elapsed(),
    error,
    excerpt,
    headers: null,
    retryAfterMs: null,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(fail('invalid URL'));
  }
  const secure = target.protocol === 'https:';
  if (options.strict && !secure) return Promise.resolve(fail('not an https URL'));
  // A literal address is connected to without any lookup: check it here.
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.strict && isIP(literal) && isForbiddenAddress(literal)) {
    return Promise.resolve(fail('must not resolve to a loopback, private, link-local or reserved address'));
  }
  const pooled = secure ? (options.strict ? agents.strictHttps : agents.https) : agents.http;
  const send = secure ? https.request : http.request;
  // A kept-alive connection the receiver closes as the request goes out fails
  // before the receiver reads it (Node's documented race: ECONNRESET on a reused
  // socket). That attempt is sent once more on a new connection of its own.
  const attempt = (fresh: boolean): Promise<AttemptResult> =>
    new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = send(target, {
        method: 'POST',
        agent: fresh ? false : pooled,
        ...(fresh && options.strict ? { lookup: publicOnlyLookup as never } : {}),
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      });
      // The deadline runs from when a connection is free: a batch may wait in the
      // agent's queue behind the endpoint's other deliveries, which is not the receiver's time.
      let timer: NodeJS.Timeout | undefined;
      request.once('socket', () => {
        started = performance.now();
        timer = setTimeout(() => {
          finish(fail(`timed out after ${options.timeoutMs} ms`));
          request.destroy();
        }, options.timeoutMs);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!fresh && request.reusedSocket && error.code === 'ECONNRESET' && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve(attempt(true));
          return;
        }
        finish(fail(error.code === 'EFORBIDDENADDRESS' ? error.message : `${error.code ?? 'error'}: ${error.message}`));
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const excerpt = text ? text.slice(0, EXCERPT_LIMIT) : null;
          const ok = status >= 200 && status < 300;
          const redirect = status >= 300 && status < 400;
          finish({
            ok,
            statusCode: status,
            durationMs: elapsed(),
            error: ok ? null : redirect ? `redirect (${status}) not followed` : `HTTP ${status}`,
            excerpt,
            headers: headerPairs(response.rawHeaders),
            retryAfterMs: retryAfterOf(response.headers['retry-after']),
          });
          // Whatever was not read is not waited for; the socket is not reused.
          if (!response.complete) response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (size >= RESPONSE_READ_LIMIT) return;
          chunks.push(chunk.subarray(0, RESPONSE_READ_LIMIT - size));
          size += chunk.length;
          if (size >= RESPONSE_READ_LIMIT) done();
        });
        response.on('end', done);
        response.on('error', done);
        response.on('aborted', done);
      });
      request.end(body);
    });
  return attempt(false);
}

/**
 * Node's raw headers ([name, value, name, value…]) as the log keeps them: the
 * first ones, values cut, without NUL (which PostgreSQL's JSONB refuses).
 */
export function headerPairs(raw: readonly string[]): HeaderPair[] {
  const clean = (text: string) => text.replaceAll('\u0000', '');
  const pairs: HeaderPair[] = [];
  for (let i = 0; i + 1 < raw.length && pairs.length < RESPONSE_HEADERS_LIMIT; i += 2) {
    pairs.push({ name: clean(raw[i]!), value: clean(raw[i + 1]!).slice(0, EXCERPT_LIMIT) });
  }
  return pairs;
}

/** Retry-After as seconds or an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterOf(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
