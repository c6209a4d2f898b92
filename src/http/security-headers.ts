// Response headers for a JSON API (helmet; OWASP's REST Security Cheat Sheet):
// no MIME sniffing, no Referer leaking URLs with ids, nothing may frame or run
// anything from an answer, and HSTS on answers to requests made over https
// (directly, through a proxy the app trusts, or to an https PUBLIC_URL: https-request.ts).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { reachedOverHttps } from './https-request.js';

const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Apollo's landing page (GET /graphql from a browser, outside production) is HTML that loads its own scripts. */
const isGraphQLLandingPage = (req: Request) =>
  req.method === 'GET' && req.path === '/graphql' && (req.headers.accept ?? '').includes('text/html');

export function securityHeaders(): RequestHandler {
  const forApi = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Sent below, and only over https: a plain-HTTP answer claiming it would be a lie browsers ignore.
    strictTransportSecurity: false,
  });
  const forLandingPage = helmet({
    contentSecurityPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (reachedOverHttps(req)) hsts(req, res, () => {});
    (isGraphQLLandingPage(req) ? forLandingPage : forApi)(req, res, next);
  };
}
