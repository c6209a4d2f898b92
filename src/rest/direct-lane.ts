// The /v1 direct lane: a request to a REST route row runs the same handlers, in
// the same order, as Express would run for it (the app's middleware before the
// mount, the router's authentication, the route's handler, the same error
// handler), on Node's own request and response, before Express sees it.
//
// Why before Express: Express's app.handle swaps the prototypes of Node's request
// and response for its own, and with that swap alone a minimal node:http server
// spent a third more CPU on a list (`npm run bench`, issue 15); then its router
// walks every layer with a regular expression each. The handlers here are written
// against exchange.ts (Node's objects and what routing sets), so they run the same
// inside Express's stack for every other path.
//
// The request gets, as own properties, what Express's app and router would set:
// `app` (its settings), `originalUrl`, then entering the mount `baseUrl` and `url`
// without it, then the route's `params`, `route` (metrics name the answer by its
// pattern) and the parsed `query`; the response gets `locals`. Anything the route
// table leaves to Express (see route-table.ts), and every path outside /v1, goes
// to Express as before.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { internalError } from '../errors.js';
import type { ErrorHandler, Handler, HttpRequest, HttpResponse, NextFunction } from '../http/exchange.js';
import type { RouteTable } from './route-table.js';

/** What runs after `before`; undefined: a route Express serves itself (the OpenAPI document). */
export type DirectRoute =
  | {
      /** The mounted router's middleware before its routes (authentication). */
      mounted: readonly Handler[];
      /** The route's own handlers. */
      route: readonly Handler[];
    }
  | undefined;

export interface DirectLaneOptions {
  /** The app whose settings the handlers read (`trust proxy fn`, `query parser fn`). */
  app: Express;
  /** Where the REST router is mounted. */
  mount: string;
  /** The app-level handlers Express runs before the mount, in order (the same instances). */
  before: readonly Handler[];
  routes: RouteTable<DirectRoute>;
  /** The error handler Express would reach. */
  onError: ErrorHandler;
}

/** Serves the request and says true, or says false and leaves it untouched for Express. */
export type Lane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Characters for which parseurl hands a URL to url.parse(): Express decides those. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

type QueryParser = ((query: string) => unknown) | undefined;

export function directLane({ app, mount, before, routes, onError }: DirectLaneOptions): Lane {
  const prefix = `${mount}/`;
  // Express's req.query: the app's `query parser fn` over the raw query string (settled when the app was composed).
  const parseQuery = app.get('query parser fn') as QueryParser;
  return (incoming, outgoing) => {
    const url = incoming.url ?? '';
    if (!url.startsWith(prefix) || UNUSUAL_URL.test(url)) return false;
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url.slice(mount.length) : url.slice(mount.length, queryAt);
    const found = routes.find(incoming.method ?? '', pathname);
    if (!found?.value) return false;
    const req = incoming as HttpRequest;
    const res = outgoing as HttpResponse;
    req.app = app;
    req.originalUrl = url;
    req.baseUrl = '';
    res.locals = Object.create(null) as HttpResponse['locals'];
    // Where Express's router changes the request: entering the mount, then the route.
    const enterMount: Handler = (_req, _res, next) => {
      req.baseUrl = mount;
      req.url = url.slice(mount.length);
      next();
    };
    const enterRoute: Handler = (_req, _res, next) => {
      req.params = found.params;
      req.route = { path: found.path };
      req.query = parseQuery ? parseQuery(queryAt < 0 ? '' : url.slice(queryAt + 1)) : Object.create(null);
      next();
    };
    const { mounted, route } = found.value;
    run([...before, enterMount, ...mounted, enterRoute, ...route], req, res, onError);
    return true;
  };
}

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** Runs handlers as Express's router does: next(error) or a throw or a rejected promise goes to onError. */
function run(handlers: readonly Handler[], req: HttpRequest, res: HttpResponse, onError: ErrorHandler): void {
  let index = 0;
  const failed = (error: unknown) =>
    onError(error, req, res, () => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  const next: NextFunction = (error) => {
    if (error) return void failed(error);
    const handler = handlers[index++];
    // A route handler always answers; one that passes the request on is a bug, not a 404.
    if (!handler) return void failed(internalError(new Error(`no handler answered ${req.method} ${req.originalUrl}`)));
    try {
      const result = handler(req, res, next);
      if (isPromise(result))
        result.then(undefined, (rejection: unknown) => next(rejection || new Error('Rejected promise')));
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}
