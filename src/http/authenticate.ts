// Who is asking, and may they: a Bearer credential (on /graphql also a signed-in
// browser's session, src/oauth/session/graphql-credential.ts) -> res.locals.principal and
// one point off that credential's rate-limit budget (RateLimit-* headers on
// every answer to it); a request without a valid credential -> one point off
// its client address's budget, so guessing keys or hammering public paths is
// bounded like any credential.
import type { ServerResponse } from 'node:http';
import { unauthorized, type CredentialResolver } from '../auth/credentials.js';
import type { Principal } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import { clientAddress, clientAddressKey } from './client-address.js';
import type { Handler, HttpRequest, HttpResponse } from './exchange.js';
import type { RateLimitDecision, SharedRateLimiter } from './rate-limit.js';

export interface AuthLocals {
  principal?: Principal;
  /** Set instead of principal when the credential was missing or refused. */
  authError?: Error;
  /** identifyClient() ran: the credential is resolved and an anonymous request counted. */
  identified?: boolean;
  /** The request's point is spent (from the credential's budget): authenticate() does not spend another. */
  spent?: boolean;
}

type Locals = HttpResponse['locals'] & AuthLocals;

/**
 * A credential refused so that the request must not run at all, whatever it
 * asks (where a refused Bearer fails only the operations that need one): a
 * session request without its CSRF token, or whose session has ended.
 */
export class RequestRefused extends DomainError {}

/** How a path finds its request's credential; throws UNAUTHORIZED (or FORBIDDEN) when it is refused. */
export type ResolveCredential = (req: HttpRequest) => Promise<Principal>;

/** The Authorization header's Bearer API key or access token: every path's credential. */
export const bearer =
  (credentials: CredentialResolver): ResolveCredential =>
  (req) =>
    credentials.resolve(req.headers.authorization);

/** Resolves the request's credential into locals.principal, or the reason into locals.authError. */
async function resolveInto(
  resolve: ResolveCredential,
  req: HttpRequest,
  res: ServerResponse,
  locals: Locals,
): Promise<void> {
  // What is answered to a credential is that credential's business: no cache may keep it.
  if (req.headers.authorization) res.setHeader('Cache-Control', 'no-store');
  try {
    locals.principal = await resolve(req);
    res.setHeader('Cache-Control', 'no-store');
  } catch (error) {
    locals.authError = error as Error;
  }
}

/** A credential that was refused (not one that could not be checked): the address's budget pays. */
const isRefused = (error: Error | undefined) =>
  error instanceof DomainError && (error.code === 'UNAUTHORIZED' || error.code === 'FORBIDDEN');

function setRateLimitHeaders(res: ServerResponse, decision: RateLimitDecision): void {
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

/** Spends one point of the principal's budget; the 429 once it is spent. */
async function spendCredentialPoint(
  principal: Principal,
  rateLimiter: SharedRateLimiter,
  res: ServerResponse,
  locals: Locals,
): Promise<DomainError | undefined> {
  locals.spent = true;
  const decision = await rateLimiter.consume(principal.rateLimitKey ?? principal.credential.id);
  setRateLimitHeaders(res, decision);
  return decision.allowed ? undefined : rateLimitExceeded(decision, '');
}

/**
 * For every path (mount it before the routes): resolves the credential once,
 * marks answers to a credential `Cache-Control: no-store`, spends a point of a
 * valid credential's budget (`authenticated`: every path counts, not only the
 * API's), and counts a request without a valid credential against its client
 * address (`req.ip`, so `trust proxy` decides which address that is): 429 once
 * a budget is spent. A credential that cannot be checked (database trouble) is
 * not counted: the route answers with that error.
 */
export function identifyClient(
  resolve: ResolveCredential,
  unauthenticated: SharedRateLimiter,
  authenticated: SharedRateLimiter,
): Handler {
  return async (req, res, next) => {
    const locals = res.locals as Locals;
    if (locals.identified) return next();
    locals.identified = true;
    await resolveInto(resolve, req, res, locals);
    if (locals.principal) return next(await spendCredentialPoint(locals.principal, authenticated, res, locals));
    if (!isRefused(locals.authError)) return next();
    const decision = await unauthenticated.consume(`ip:${clientAddressKey(clientAddress(req))}`);
    setRateLimitHeaders(res, decision);
    if (decision.allowed) return next();
    next(rateLimitExceeded(decision, ' without a valid credential from this address'));
  };
}

/**
 * Requires a principal (401 without one) or, with `optional`, lets the request
 * on with locals.authError for the operations that need one; then spends a
 * point of the credential's budget (429 once it is spent), unless identifyClient
 * already did.
 */
export function authenticate(
  resolve: ResolveCredential,
  rateLimiter: SharedRateLimiter,
  { optional = false } = {},
): Handler {
  return async (req, res, next) => {
    const locals = res.locals as Locals;
    if (!locals.identified) await resolveInto(resolve, req, res, locals);
    const principal = locals.principal;
    if (!principal) return optional ? next() : next(locals.authError ?? unauthorized());
    if (locals.spent) return next();
    next(await spendCredentialPoint(principal, rateLimiter, res, locals));
  };
}
