// Every REST error leaves through here, in the specification's envelope.
import type { Response } from 'express';
import { DomainError, internalError } from '../errors.js';

export function sendError(res: Response, error: DomainError): void {
  if (error.code === 'UNAUTHORIZED') {
    res.setHeader('WWW-Authenticate', 'Bearer realm="api"');
  }
  if (error.retryAfter !== undefined) res.setHeader('Retry-After', String(error.retryAfter));
  res.status(error.status).json({ error: error.toBody() });
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
