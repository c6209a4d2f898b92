// What the handlers shared by Express's stack and the /v1 direct lane
// (src/rest/direct-lane.ts) may use of a request and its response: Node's own
// objects and the few properties routing sets on them. Express's request and
// response are subclasses of these, so the same handler runs in both; the lane
// hands them Node's objects unchanged, without Express's prototype swap, which
// alone cost a list a third of a minimal server's CPU (`npm run bench`, issue 15).
// Express-only API (res.status, res.json, req.ip, req.query's getter) stays out:
// send-json.ts, client-address.ts and https-request.ts do the same from here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Application } from 'express';
import parseurl from 'parseurl';

export interface HttpRequest extends IncomingMessage {
  /** The Express app: its settings (`trust proxy fn`, `query parser fn`, ...). */
  app: Application;
  /** The URL as it arrived; `url` loses the mount's prefix inside a mount. */
  originalUrl: string;
  /** The mount the request is inside ('' outside every mount). */
  baseUrl: string;
  /** The matched route's parameters. */
  params: Record<string, string | string[]>;
  /** The matched route (its pattern names the request in metrics). */
  route?: { path?: unknown };
  /** The parsed query string (Express: a getter; the lane: set once). */
  query?: unknown;
  /** The parsed JSON body, once read (body.ts). */
  body?: unknown;
}

export interface HttpResponse extends ServerResponse {
  /** What the handlers of one request tell each other (the principal, ...). */
  locals: Record<string, unknown>;
}

export type NextFunction = (error?: unknown) => void;

export type Handler = (req: HttpRequest, res: HttpResponse, next: NextFunction) => unknown;

export type ErrorHandler = (error: unknown, req: HttpRequest, res: HttpResponse, next: NextFunction) => unknown;

/** The URL's path, as Express's `req.path` gives it (the same parse, cached on the request). */
export function pathOf(req: IncomingMessage): string {
  return parseurl(req)?.pathname ?? '/';
}
