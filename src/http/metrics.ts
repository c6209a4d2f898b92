// Each request's latency, by method, route pattern and status
// (http_request_duration_seconds; its _count is the request count). The route is
// the pattern that answered (`/v1/crm/contacts/:id`), never the path with its ids;
// a request answered before any route matched (a 404, a 401 or 429 from the guards)
// is counted under its mount point, `/v1/*`, or `*` outside every mount. Both come
// from what the code declares (the route's pattern, the mount's name given by
// mountName), never from the path the client sent: Express matches paths without
// regard to case, and `/Dashboard/x` must not make a series of its own.
import type { HttpRequest, HttpResponse, NextFunction } from './exchange.js';
import { httpRequestDuration } from '../metrics/registry.js';

/** res.locals key: the route label of a mount that serves every path under it (/graphql). */
const ROUTE = 'metricsRoute';
/** res.locals key: the declared path of the mount the request entered (/v1, /oauth). */
const MOUNT = 'metricsMount';

export function measureRequests(req: HttpRequest, res: HttpResponse, next: NextFunction): void {
  const started = performance.now();
  res.once('finish', () => {
    httpRequestDuration.observe(
      { method: req.method, route: routeOf(req, res), status: res.statusCode },
      (performance.now() - started) / 1000,
    );
  });
  next();
}

/** Names the route of a mount that has no route patterns of its own. */
export function routeName(route: string) {
  return (_req: HttpRequest, res: HttpResponse, next: NextFunction): void => {
    res.locals[ROUTE] = route;
    next();
  };
}

/**
 * Names the mount a request entered, as declared: mount it on the mount's path
 * (`app.use('/docs', mountName('/docs'))`), ahead of the guards that may answer first.
 */
export function mountName(mount: string) {
  return (_req: HttpRequest, res: HttpResponse, next: NextFunction): void => {
    res.locals[MOUNT] = mount;
    next();
  };
}

function routeOf(req: HttpRequest, res: HttpResponse): string {
  const named = res.locals[ROUTE] as string | undefined;
  if (named) return named;
  const mount = res.locals[MOUNT] as string | undefined;
  const pattern = req.route?.path;
  // A route inside a mount nobody named is counted under `*`: its path is the client's spelling.
  if (typeof pattern === 'string') return req.baseUrl && !mount ? '*' : `${mount ?? ''}${pattern}`;
  return mount ? `${mount}/*` : '*';
}
