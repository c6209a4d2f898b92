// Response headers for a JSON API (helmet; OWASP's REST Security Cheat Sheet):
// no MIME sniffing, no Referer leaking URLs with ids, nothing may frame or run
// anything from an answer, and HSTS on answers to requests made over https
// (directly, through a proxy the app trusts, or to an https PUBLIC_URL: https-request.ts).
//
// helmet's options here are all constant (no directive depends on the request),
// so each header set is what helmet answers once, recorded at start-up and set on
// every answer: one loop of setHeader instead of helmet's chain of a dozen
// middleware per request (`npm run bench`, issue 15).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pathOf, type Handler, type HttpRequest } from './exchange.js';
import helmet from 'helmet';
import { reachedOverHttps } from './https-request.js';

const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Apollo's landing page (GET /graphql from a browser, outside production) is HTML that loads its own scripts. */
const isGraphQLLandingPage = (req: IncomingMessage) =>
  req.method === 'GET' && (req.headers.accept ?? '').includes('text/html') && pathOf(req) === '/graphql';

/** What a helmet middleware does to a response: headers removed, then headers set, in order. */
interface HeaderSet {
  removed: string[];
  set: [name: string, value: string][];
}

/** Runs a helmet middleware once against a recording response; it must set its headers synchronously. */
function record(middleware: RequestHandler): HeaderSet {
  const removed: string[] = [];
  const set = new Map<string, string>();
  let done = false;
  const res = {
    setHeader(name: string, value: string) {
      set.set(name, value);
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  void middleware({ headers: {} } as Request, res as unknown as Response, (error?: unknown) => {
    if (error) throw error as Error;
    done = true;
  });
  if (!done) throw new Error('a security header middleware did not finish synchronously');
  return { removed, set: [...set] };
}

function apply(res: ServerResponse, { removed, set }: HeaderSet): void {
  for (const name of removed) res.removeHeader(name);
  for (const [name, value] of set) res.setHeader(name, value);
}

export function securityHeaders(): Handler {
  const forApi = record(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      referrerPolicy: { policy: 'no-referrer' },
      xFrameOptions: { action: 'deny' },
      // Sent below, and only over https: a plain-HTTP answer claiming it would be a lie browsers ignore.
      strictTransportSecurity: false,
    }),
  );
  const forLandingPage = record(
    helmet({
      contentSecurityPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
    }),
  );
  const hsts = record(helmet.strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true }));
  return (req: HttpRequest, res, next) => {
    if (reachedOverHttps(req)) apply(res, hsts);
    apply(res, isGraphQLLandingPage(req) ? forLandingPage : forApi);
    next();
  };
}
