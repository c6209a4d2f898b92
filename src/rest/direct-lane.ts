// The /v1 direct lane: a request to a REST route row runs the same handlers, in
// the same order, as Express would run for it (the app's middleware before the
// mount, the router's authentication, the route's handler, the same error
// handler), without Express walking its layers to find them. Express's router
// tried every app-level layer, then every route of the /v1 router in turn, with a
// regular expression each, and that walk was the largest single cost of a REST
// request on top of the handlers' own work (`npm run bench`, issue 15).
//
// The request changes where Express's router changes it: entering the mount
// (req.baseUrl `/v1`, req.url without it), then the route (req.params,
// req.route.path), so an answer from a guard is labelled as before (metrics.ts).
// Anything the route table leaves to Express (see route-table.ts), and every
// path outside /v1, goes on through Express as before.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { internalError } from '../errors.js';
import type { RouteTable } from './route-table.js';

/** What runs after `before`; undefined: a route Express serves itself (the OpenAPI document). */
export type DirectRoute =
  | {
      /** The mounted router's middleware before its routes (authentication). */
      mounted: readonly RequestHandler[];
      /** The route's own handlers. */
      route: readonly RequestHandler[];
    }
  | undefined;

export interface DirectLaneOptions {
  /** Where the REST router is mounted. */
  mount: string;
  /** The app-level handlers Express runs before the mount, in order (the same instances). */
  before: readonly RequestHandler[];
  routes: RouteTable<DirectRoute>;
  /** The error handler Express would reach. */
  onError: ErrorRequestHandler;
}

/** Characters for which parseurl hands a URL to url.parse(): Express decides those. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

export function directLane({ mount, before, routes, onError }: DirectLaneOptions): RequestHandler {
  const prefix = `${mount}/`;
  return (req: Request, res: Response, next: NextFunction) => {
    const url = req.url;
    if (!url.startsWith(prefix) || UNUSUAL_URL.test(url)) return next();
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url.slice(mount.length) : url.slice(mount.length, queryAt);
    const found = routes.find(req.method, pathname);
    if (!found?.value) return next();
    // Where Express's router changes the request: entering the mount, then the route.
    const enterMount: RequestHandler = (_req, _res, next) => {
      req.baseUrl = mount;
      req.url = url.slice(mount.length);
      next();
    };
    const enterRoute: RequestHandler = (_req, _res, next) => {
      req.params = found.params;
      (req as { route?: unknown }).route = { path: found.path };
      next();
    };
    const { mounted, route } = found.value;
    run([...before, enterMount, ...mounted, enterRoute, ...route], req, res, onError);
  };
}

const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** Runs handlers as Express's router does: next(error) or a throw or a rejected promise goes to onError. */
function run(handlers: readonly RequestHandler[], req: Request, res: Response, onError: ErrorRequestHandler): void {
  let index = 0;
  const failed = (error: unknown) =>
    onError(error, req, res, () => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  const next = (error?: unknown): void => {
    if (error) return void failed(error);
    const handler = handlers[index++];
    // A route handler always answers; one that passes the request on is a bug, not a 404.
    if (!handler) return void failed(internalError(new Error(`no handler answered ${req.method} ${req.originalUrl}`)));
    try {
      const result = handler(req, res, next) as unknown;
      if (isPromise(result))
        result.then(undefined, (rejection: unknown) => next(rejection || new Error('Rejected promise')));
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}
