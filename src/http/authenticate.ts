// Bearer credential -> res.locals.principal, then one point off the credential's
// rate-limit budget; RateLimit-* headers on every authenticated response.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { CredentialResolver } from '../auth/credentials.js';
import type { Principal } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import type { SharedRateLimiter } from './rate-limit.js';

export interface AuthLocals {
  principal?: Principal;
  /** Set instead of principal when `optional` and the credential was refused. */
  authError?: Error;
}

export function authenticate(
  credentials: CredentialResolver,
  rateLimiter: SharedRateLimiter,
  { optional = false } = {},
): RequestHandler {
  return (async (req: Request, res: Response<unknown, AuthLocals>, next: NextFunction) => {
    let principal: Principal;
    try {
      principal = await credentials.resolve(req.headers.authorization);
    } catch (error) {
      if (!optional) return next(error);
      res.locals.authError = error as Error;
      return next();
    }
    res.locals.principal = principal;
    const decision = await rateLimiter.consume(principal.credential.id);
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (decision.allowed) return next();
    next(
      new DomainError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${decision.limit} requests exceeded; retry after ${decision.resetSeconds} seconds`,
        undefined,
        { retryAfter: decision.resetSeconds },
      ),
    );
  }) as RequestHandler;
}
