// A real webhook receiver on loopback: records every request (raw body bytes,
// headers, time) and answers as the test says, for the webhook tests. Also the
// worker for a test file, started on the test server's own configuration.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startWorker, type Worker } from '../../src/jobs/worker.js';
import type { ServerFixture } from './fixtures.js';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body as sent. */
  body: string;
  at: number;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer only after this long (ms). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How the n-th request (from 1) is answered; default 200. */
  answer: (request: Received, n: number) => Answer;
  /** Resolves with the requests once there are at least `count` of them. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => ({})): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      for (const wake of waiters.splice(0)) wake();
      const reply = receiver.answer(request, received.length);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? 'ok');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} deliveries, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice();
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** Receivers made in a test file, closed after it. */
export function useReceivers(): (answer?: Receiver['answer']) => Promise<Receiver> {
  const open: Receiver[] = [];
  afterAll(async () => {
    await Promise.all(open.map((receiver) => receiver.close()));
  });
  return async (answer) => {
    const receiver = await startReceiver(answer);
    open.push(receiver);
    return receiver;
  };
}

/** A worker for the file's test server, on its configuration and database, polling often. */
export function useWorker(server: ServerFixture): { current(): Worker } {
  let worker: Worker | undefined;
  beforeAll(async () => {
    worker = await startWorker({
      config: server.config,
      databaseUrl: server.databaseUrl,
      logger: createLogger(server.config),
      pollIntervalMs: 50,
    });
  });
  afterAll(async () => {
    await worker?.stop();
  });
  return {
    current() {
      if (!worker) throw new Error('the worker starts in beforeAll');
      return worker;
    },
  };
}

/** The specification's check: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string. */
export function expectServiceSignature(request: Received, secret: string): void {
  const expected = createHmac('sha256', secret).update(request.body, 'utf8').digest('hex');
  const given = String(request.headers['x-service-signature'] ?? '');
  expect(given).toMatch(/^[0-9a-f]{64}$/);
  expect(timingSafeEqual(Buffer.from(given), Buffer.from(expected))).toBe(true);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something truthy, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}
