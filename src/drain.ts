// Graceful HTTP shutdown: once drain() is called the server accepts no new
// connection, idle keep-alive connections close at once, each request in flight
// finishes (its connection closes after its answer) until a deadline, and a
// request that still arrives on an open connection is answered 503.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { DomainError } from './errors.js';

export interface Drainable {
  /** The request listener to give the HTTP(S) server, in place of the app. */
  listener: RequestListener;
  /** Requests being served now. */
  inFlight(): number;
  /** Resolves when every request in flight has finished, or at the deadline; with how many were cut off. */
  drain(server: ClosableServer, deadlineMs: number): Promise<{ unfinished: number }>;
}

/** http.Server and https.Server alike. */
export type ClosableServer = Pick<Server, 'close' | 'closeIdleConnections' | 'closeAllConnections'>;

export function drainable(app: RequestListener): Drainable {
  const active = new Set<ServerResponse>();
  let draining = false;
  let whenIdle: (() => void) | undefined;

  const listener: RequestListener = (req, res) => {
    if (draining) return refuse(req, res);
    active.add(res);
    res.once('close', () => {
      active.delete(res);
      if (!draining) return;
      // Headers already sent with keep-alive: close the connection now the answer is out.
      if (!req.socket.destroyed) req.socket.end();
      if (active.size === 0) whenIdle?.();
    });
    app(req, res);
  };

  return {
    listener,
    inFlight: () => active.size,
    async drain(server, deadlineMs) {
      draining = true;
      // No new connections; since Node 19 this also closes the idle keep-alive ones.
      server.close();
      server.closeIdleConnections();
      // Answers not yet started carry `Connection: close` and end their connection.
      for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
      if (active.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => (whenIdle = resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs))),
        ]);
        clearTimeout(timer);
      }
      const unfinished = active.size;
      server.closeAllConnections();
      return { unfinished };
    },
  };
}

/** 503 in the envelope of the path (REST or GraphQL), closing the connection. */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  const error = new DomainError('SERVICE_UNAVAILABLE', 'The service is shutting down', undefined, { retryAfter: 1 });
  const body = req.url?.startsWith('/graphql')
    ? { errors: [{ message: error.message, extensions: { code: error.code } }] }
    : { error: error.toBody() };
  res.shouldKeepAlive = false;
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1' });
  res.end(JSON.stringify(body));
}
