// Who is asking, and may they: a Bearer credential -> res.locals.principal and
// one point off that credential's rate-limit budget (RateLimit-* headers on
// every answer to it); a request without a valid credential -> one point off
// its client address's budget, so guessing keys or hammering public paths is
// bounded like any credential.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { unauthorized, type CredentialResolver } from '../auth/credentials.js';
import type { Principal } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import { clientAddressKey } from './client-address.js';
import type { RateLimitDecision, SharedRateLimiter } from './rate-limit.js';

export interface AuthLocals {
  principal?: Principal;
  /** Set instead of principal when the credential was missing or refused. */
  authError?: Error;
  /** identifyClient() ran: the credential is resolved and an anonymous request counted. */
  identified?: boolean;
}

type Locals = Response<unknown, AuthLocals>['locals'];

/** Resolves the Authorization header into locals.principal, or the reason into locals.authError. */
async function resolveInto(credentials: CredentialResolver, req: Request, locals: Locals): Promise<void> {
  try {
    locals.principal = await credentials.resolve(req.headers.authorization);
  } catch (error) {
    locals.authError = error as Error;
  }
}

function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
}

const rateLimitExceeded = (decision: RateLimitDecision, whose: string) =>
  new DomainError(
    'RATE_LIMIT_EXCEEDED',
    `Rate limit of ${decision.limit} requests${whose} exceeded; retry after ${decision.resetSeconds} seconds`,
    undefined,
    { retryAfter: decision.resetSeconds },
  );

/**
 * For every path (mount it before the routes): resolves the credential once,
 * marks answers to a credential `Cache-Control: no-store`, and counts a request
 * without a valid credential against its client address (`req.ip`, so
 * `trust proxy` decides which address that is): 429 once that budget is spent.
 * A credential that cannot be checked (database trouble) is not counted: the
 * route answers with that error.
 */
export function identifyClient(credentials: CredentialResolver, unauthenticated: SharedRateLimiter): RequestHandler {
  return (async (req: Request, res: Response<unknown, AuthLocals>, next: NextFunction) => {
    const locals = res.locals;
    if (locals.identified) return next();
    locals.identified = true;
    // What is answered to a credential is that credential's business: no cache may keep it.
    if (req.headers.authorization) res.setHeader('Cache-Control', 'no-store');
    await resolveInto(credentials, req, locals);
    if (locals.principal) return next();
    const refused = locals.authError instanceof DomainError && locals.authError.code === 'UNAUTHORIZED';
    if (!refused) return next();
    const decision = await unauthenticated.consume(`ip:${clientAddressKey(req.ip)}`);
    setRateLimitHeaders(res, decision);
    if (decision.allowed) return next();
    next(rateLimitExceeded(decision, ' without a valid credential from this address'));
  }) as RequestHandler;
}

/**
 * Requires a principal (401 without one) or, with `optional`, lets the request
 * on with locals.authError for the operations that need one; then spends a
 * point of the credential's budget (429 once it is spent).
 */
export function authenticate(
  credentials: CredentialResolver,
  rateLimiter: SharedRateLimiter,
  { optional = false } = {},
): RequestHandler {
  return (async (req: Request, res: Response<unknown, AuthLocals>, next: NextFunction) => {
    const locals = res.locals;
    if (!locals.identified) {
      if (req.headers.authorization) res.setHeader('Cache-Control', 'no-store');
      await resolveInto(credentials, req, locals);
    }
    const principal = locals.principal;
    if (!principal) return optional ? next() : next(locals.authError ?? unauthorized());
    const decision = await rateLimiter.consume(principal.rateLimitKey ?? principal.credential.id);
    setRateLimitHeaders(res, decision);
    if (decision.allowed) return next();
    next(rateLimitExceeded(decision, ''));
  }) as RequestHandler;
}
