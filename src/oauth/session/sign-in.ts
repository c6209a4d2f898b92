// Signing in with email and password, for any page that needs a user (the
// OAuth consent now, the dashboard later): the form, its POST, and sign-out.
// Failed attempts are limited per account and per client address in the
// shared rate-limit store (sign-in-limits.ts), so guessing is slow across every
// server process; a success starts a new session token (no fixation) and
// raises user.logged_in.
import express, { type Request, type Response, type Router } from 'express';
import { sha256Hex } from '../../auth/secrets.js';
import type { SessionService, SessionUser } from '../../graphql/system/session/service.js';
import { clientAddressKey } from '../../http/client-address.js';
import { sendFormExpired, sendPage, signInPage, CSRF_FIELD } from '../pages.js';
import { readSessionCookie, writeSessionCookie } from './cookie.js';
import { csrfToken, validCsrf } from './csrf.js';
import { SESSION_LIFETIME_SECONDS } from '../../graphql/system/session/service.js';
import { generateOAuthSecret } from '../../auth/oauth-token-format.js';
import { giveBack, succeeded, takeAttempt, type SignInLimits } from './sign-in-limits.js';

export interface SignInDependencies {
  sessions: SessionService;
  limits: SignInLimits;
  bodyLimitBytes: number;
}

/** The signed-in user of this browser, or undefined. */
export function signedInUser(req: Request, sessions: SessionService): Promise<SessionUser | undefined> {
  return sessions.find(readSessionCookie(req));
}

export interface SignInForm {
  continueTo: string;
  appName?: string;
  email?: string;
  error?: string;
  status?: number;
}

export function sendSignIn(req: Request, res: Response, form: SignInForm): void {
  const body = signInPage({ ...form, csrf: csrfToken(req, res) });
  sendPage(res, 'Sign in', body, { status: form.status });
}

/** A path on this server (not `//host`, not `/\host`): where a sign-in may continue to. */
export function localPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\/(?![/\\])/.test(value) || /[\r\n\\]/.test(value)) return undefined;
  return value;
}

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

export function signInRouter(deps: SignInDependencies): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: deps.bodyLimitBytes, parameterLimit: 50 });

  router.post('/sign-in', form, async (req: Request, res: Response) => {
    const continueTo = localPath(field(req.body, 'continue')) ?? '/oauth/authorize';
    if (!validCsrf(req, field(req.body, CSRF_FIELD))) {
      return sendFormExpired(res, 'Go back, reload the page and try again.');
    }
    const email = (field(req.body, 'email') ?? '').trim().toLowerCase();
    const password = field(req.body, 'password') ?? '';
    if (!email || !password) {
      return sendSignIn(req, res, { continueTo, email, error: 'Enter your email and password.', status: 400 });
    }
    const keys = { account: sha256Hex(email), address: clientAddressKey(req.ip) };
    const wait = await takeAttempt(deps.limits, keys);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      const minutes = Math.ceil(wait / 60);
      return sendSignIn(req, res, {
        continueTo,
        email,
        error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        status: 429,
      });
    }
    const user = await deps.sessions.verifyCredentials(email, password).catch(async (error: unknown) => {
      await giveBack(deps.limits, keys);
      throw error;
    });
    if (!user) {
      // The attempt's points stay taken: it failed.
      return sendSignIn(req, res, { continueTo, email, error: 'The email or password is not right.', status: 401 });
    }
    await succeeded(deps.limits, keys);
    await deps.sessions.end(readSessionCookie(req));
    const session = await deps.sessions.start(user, req.get('user-agent'));
    writeSessionCookie(req, res, session.token, SESSION_LIFETIME_SECONDS);
    res.redirect(303, continueTo);
  });

  router.post('/sign-out', form, async (req: Request, res: Response) => {
    if (!validCsrf(req, field(req.body, CSRF_FIELD))) {
      return sendFormExpired(res);
    }
    await deps.sessions.end(readSessionCookie(req));
    writeSessionCookie(req, res, generateOAuthSecret('session').value);
    res.redirect(303, localPath(field(req.body, 'continue')) ?? '/oauth/authorize');
  });

  return router;
}
