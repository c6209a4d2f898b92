// CSRF protection for every form: the token is an HMAC of the browser's
// session cookie, so a page from another site can neither read it nor make
// one, and it changes when the cookie does (at sign-in). Plus SameSite=Lax,
// which keeps the cookie off cross-site POSTs in the first place.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { HttpRequest } from '../../http/exchange.js';
import { browserToken, readSessionCookie } from './cookie.js';

const PURPOSE = 'csrf-v1';

/** The CSRF token of a session cookie's value (what csrfToken puts in a page for it). */
export function tokenFor(cookie: string): string {
  return createHmac('sha256', cookie).update(PURPOSE).digest('base64url');
}

/** The token to put in this browser's forms (sets the cookie if it has none). */
export function csrfToken(req: Request, res: Response): string {
  return tokenFor(browserToken(req, res));
}

/** Whether a submitted form carries this browser's token. */
export function validCsrf(req: HttpRequest, submitted: unknown): boolean {
  const cookie = readSessionCookie(req);
  if (!cookie || typeof submitted !== 'string' || submitted === '') return false;
  const expected = Buffer.from(tokenFor(cookie));
  const actual = Buffer.from(submitted);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
