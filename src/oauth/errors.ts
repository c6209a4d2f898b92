// OAuth's error answers: RFC 6749 5.2's {error, error_description} with the
// right status, for the token, revocation and introspection endpoints. The
// library's OAuthErrors carry their own code and status; anything else goes
// through the one DomainError mapper's meaning (src/http/errors.ts) and is
// renamed to the RFC's words. Internal faults never show their cause.
import type { Response } from 'express';
import type { Logger } from 'pino';
import type { DomainError, ErrorCode } from '../errors.js';
import { httpStatusOf, toDomainError } from '../http/errors.js';

export interface OAuthErrorAnswer {
  status: number;
  error: string;
  description: string;
  retryAfter?: number;
}

/** An error of our own making, in RFC 6749's words. */
export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/**
 * RFC 6749 5.2: a failed client authentication is invalid_client. We answer it 401 with
 * a Basic challenge however the client authenticated (the RFC requires it for Basic and
 * allows it otherwise), at the token, revocation and introspection endpoints alike.
 */
export const invalidClient = (description = 'Client authentication failed') =>
  new OAuthProblem('invalid_client', description, 401);

const CLIENT_CHALLENGE = 'Basic realm="oauth"';

interface LibraryError {
  name: string;
  message: string;
  code: number;
  inner?: unknown;
}

const isLibraryError = (error: unknown): error is LibraryError =>
  error instanceof Error &&
  typeof (error as { code?: unknown }).code === 'number' &&
  /^[a-z_]+$/.test(error.name) &&
  error.name !== 'Error';

/** The RFC 6749 error for the domain errors a client can cause or wait out; the rest are server_error. */
const RFC_ERROR: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'invalid_request',
  PAYLOAD_TOO_LARGE: 'invalid_request',
  UNSUPPORTED_MEDIA_TYPE: 'invalid_request',
  UNAUTHORIZED: 'invalid_client',
  RATE_LIMIT_EXCEEDED: 'temporarily_unavailable',
  SERVICE_UNAVAILABLE: 'temporarily_unavailable',
};

/** A domain error in RFC 6749's words, with the status the one mapper gives it. */
function fromDomain(domain: DomainError): OAuthErrorAnswer {
  const error = RFC_ERROR[domain.code];
  if (!error) return { status: 500, error: 'server_error', description: 'An internal error occurred' };
  return { status: httpStatusOf(domain), error, description: domain.message, retryAfter: domain.retryAfter };
}

/** Any error -> its RFC 6749 answer; logs internal faults with their cause. */
export function oauthErrorOf(error: unknown, logger?: Logger): OAuthErrorAnswer {
  if (error instanceof OAuthProblem)
    return { status: error.status, error: error.error, description: error.description };
  if (isLibraryError(error) && error.code < 500) {
    // The library answers 400 when the secret came in the body: ours is 401 either way.
    const status = error.name === 'invalid_client' ? 401 : error.code;
    return { status, error: error.name, description: error.message };
  }
  // The library wraps our own failures (a database outage in the model) as server_error with `inner`.
  const cause = isLibraryError(error) ? (error.inner ?? error) : error;
  const answer = fromDomain(toDomainError(cause));
  if (answer.status === 500) logger?.error({ err: cause }, 'OAuth request failed');
  return answer;
}

export function sendOAuthError(res: Response, error: unknown, logger?: Logger): void {
  const answer = oauthErrorOf(error, logger);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  if (answer.retryAfter !== undefined) res.setHeader('Retry-After', String(answer.retryAfter));
  if (answer.status === 401) res.setHeader('WWW-Authenticate', CLIENT_CHALLENGE);
  res.status(answer.status).json({ error: answer.error, error_description: answer.description });
}
