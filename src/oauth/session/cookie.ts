// The one browser cookie of the sign-in pages (and, later, the dashboard): a
// random token (bpss_…) that is the session once its user has signed in (only
// its SHA-256 is stored) and, before that, what the CSRF token is bound to.
// HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs),
// Secure when the request came over TLS.
import type { Request, Response } from 'express';
import { generateOAuthSecret, looksLike } from '../../auth/oauth-token-format.js';

export const SESSION_COOKIE = 'bp_session';

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export function writeSessionCookie(req: Request, res: Response, token: string, maxAgeSeconds?: number): void {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    ...(maxAgeSeconds !== undefined && { maxAge: maxAgeSeconds * 1000 }),
  });
}

/** The browser's token; a new one (set on the answer) when it has none or a malformed one. */
export function browserToken(req: Request, res: Response): string {
  const current = readCookie(req, SESSION_COOKIE);
  if (looksLike('session', current)) return current;
  const fresh = generateOAuthSecret('session').value;
  writeSessionCookie(req, res, fresh);
  // Later code in this request reads the cookie as the browser will send it next time.
  req.headers.cookie = `${SESSION_COOKIE}=${fresh}`;
  return fresh;
}
