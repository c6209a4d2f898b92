// The one browser cookie of the sign-in pages (and, later, the dashboard): a
// random token (bpss_…) that is the session once its user has signed in (only
// its SHA-256 is stored) and, before that, what the CSRF token is bound to.
// HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs).
// Over https (TLS here, a trusted proxy's X-Forwarded-Proto, or an https
// PUBLIC_URL) it is Secure and named with the __Host- prefix, which browsers
// accept only from a secure origin, for the whole host (Path=/, no Domain): no
// subdomain and no plain-http page can plant one. Only the name in use is read.
import type { Request, Response } from 'express';
import { generateOAuthSecret, looksLike } from '../../auth/oauth-token-format.js';
import type { HttpRequest } from '../../http/exchange.js';
import { reachedOverHttps } from '../../http/https-request.js';

export const SESSION_COOKIE = 'bp_session';

/** The session cookie's name on this request: `__Host-bp_session` over https. */
export function sessionCookieName(req: HttpRequest): string {
  return reachedOverHttps(req) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

export function readCookie(req: HttpRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** This browser's session cookie, under the name in use on this request. */
export function readSessionCookie(req: HttpRequest): string | undefined {
  return readCookie(req, sessionCookieName(req));
}

export function writeSessionCookie(req: Request, res: Response, token: string, maxAgeSeconds?: number): void {
  res.cookie(sessionCookieName(req), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: reachedOverHttps(req),
    path: '/',
    ...(maxAgeSeconds !== undefined && { maxAge: maxAgeSeconds * 1000 }),
  });
}

/** The browser's token; a new one (set on the answer) when it has none or a malformed one. */
export function browserToken(req: Request, res: Response): string {
  const current = readSessionCookie(req);
  if (looksLike('session', current)) return current;
  const fresh = generateOAuthSecret('session').value;
  writeSessionCookie(req, res, fresh);
  // Later code in this request reads the cookie as the browser will send it next time.
  req.headers.cookie = `${sessionCookieName(req)}=${fresh}`;
  return fresh;
}
