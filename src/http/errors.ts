// The one mapping from DomainError codes to HTTP: status and headers. The REST
// envelope and /graphql's request-level errors both answer through here.
import type { Response } from 'express';
import { DomainError, internalError, type ErrorCode } from '../errors.js';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export function httpStatusOf(error: DomainError): number {
  return HTTP_STATUS[error.code];
}

/** Status and the headers that go with it (WWW-Authenticate on 401, Retry-After on 429). */
export function writeErrorHead(res: Response, error: DomainError): void {
  if (error.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer realm="api"');
  if (error.retryAfter !== undefined) res.setHeader('Retry-After', String(error.retryAfter));
  res.status(httpStatusOf(error));
}

/** The specification's envelope: {"error": {code, message, field?, retryAfter?}}. */
export function sendError(res: Response, error: DomainError): void {
  writeErrorHead(res, error);
  res.json({ error: error.toBody() });
}

/** body-parser and other http errors -> DomainError; anything else is internal. */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const type = (error as { type?: string } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new DomainError('VALIDATION_ERROR', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new DomainError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 JSON');
    case 'request.aborted':
    case 'request.size.invalid':
      return new DomainError('VALIDATION_ERROR', 'The request body was incomplete');
    default:
      // A path segment that is not valid percent-encoding (router marks it 400).
      if (error instanceof URIError)
        return new DomainError('VALIDATION_ERROR', 'The URL is not valid percent-encoding');
      return internalError(error);
  }
}
