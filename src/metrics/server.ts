// The Prometheus endpoint: GET /metrics on a listener of its own (METRICS_HOST,
// METRICS_PORT), never on the service's port, so a proxy or load balancer in front
// of the API cannot expose it; with METRICS_TOKEN a scrape must send it as a Bearer
// token. Anything else answers 404.
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsListener } from '../config.js';
import { registry } from './registry.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export class MetricsListenError extends Error {}

const digest = (text: string) => createHash('sha256').update(text).digest();

function send(res: http.ServerResponse, status: number, code: string, message: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

export async function startMetricsServer({ host, port, token }: MetricsListener): Promise<MetricsServer> {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  const server = http.createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return send(res, 404, 'NOT_FOUND', 'Only GET /metrics is served here');
    }
    if (expected && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      return send(res, 401, 'UNAUTHENTICATED', 'A scrape needs Authorization: Bearer <METRICS_TOKEN>', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => send(res, 500, 'INTERNAL_ERROR', String(error)),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new MetricsListenError(
          error.code === 'EADDRINUSE'
            ? `metrics port ${port} on ${host} is already in use: give each process its own METRICS_PORT`
            : `cannot listen for metrics on ${host}:${port} (${error.code ?? error.message}): check METRICS_HOST and METRICS_PORT`,
        ),
      ),
    );
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
