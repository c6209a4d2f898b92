// The one mapping from DomainError codes to HTTP: status and headers. The REST
// envelope and /graphql's request-level errors both answer through here.
import type { ServerResponse } from 'node:http';
import { databaseUnavailable } from '../db/unavailable.js';
import { DomainError, internalError, type ErrorCode } from '../errors.js';
import { bodyTooLarge, SUPPORTED_ENCODINGS } from './body.js';
import { sendJson } from './send-json.js';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  CURSOR_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export function httpStatusOf(error: DomainError): number {
  return HTTP_STATUS[error.code];
}

/** Status and the headers that go with it (WWW-Authenticate on 401, Retry-After on 429 and 503). */
export function writeErrorHead(res: ServerResponse, error: DomainError): void {
  if (error.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer realm="api"');
  if (error.retryAfter !== undefined) res.setHeader('Retry-After', String(error.retryAfter));
  res.statusCode = httpStatusOf(error);
}

/** The specification's envelope: {"error": {code, message, field?, retryAfter?}}. */
export function sendError(res: ServerResponse, error: DomainError): void {
  writeErrorHead(res, error);
  sendJson(res, res.statusCode, { error: error.toBody() });
}

type HttpError = {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  limit?: number;
  body?: unknown;
  code?: string;
};

const isZlibError = (error: HttpError) =>
  typeof error.code === 'string' && /^(Z_|ERR__ERROR_|ERR_(ZLIB|BROTLI|ZSTD))/.test(error.code);

/** body-parser's strict mode calls anything but an object or array "not JSON"; some of it is JSON. */
function isJsonButNotObjectOrArray(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * Any error -> DomainError: DomainErrors as they are (an internal one whose cause
 * is a passing database trouble becomes 503), body-parser and http-errors by
 * their type or status, a database that is unreachable, saturated or too slow as
 * 503 with Retry-After; anything else is internal.
 */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) {
    if (error.code !== 'INTERNAL_ERROR' || error.cause === undefined) return error;
    return databaseUnavailable(error.cause) ?? error;
  }
  const http = (error ?? {}) as HttpError;
  switch (http.type) {
    case 'entity.parse.failed':
      return new DomainError(
        'VALIDATION_ERROR',
        isJsonButNotObjectOrArray(http.body)
          ? 'The request body must be a JSON object'
          : 'The request body is not valid JSON',
      );
    case 'entity.too.large':
      return http.limit
        ? bodyTooLarge(http.limit)
        : new DomainError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'encoding.unsupported':
      return new DomainError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Encoding must be one of ${SUPPORTED_ENCODINGS.join(', ')} (or none)`,
        'Content-Encoding',
      );
    case 'charset.unsupported':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 JSON');
    case 'request.aborted':
    case 'request.size.invalid':
      return new DomainError('VALIDATION_ERROR', 'The request body was incomplete');
  }
  // A body labelled gzip/deflate/br that is not: zlib's error, marked 400 by body-parser.
  if (isZlibError(http)) {
    return new DomainError(
      'VALIDATION_ERROR',
      'The request body is not encoded as its Content-Encoding says (gzip, deflate or br)',
      'Content-Encoding',
    );
  }
  // A path segment that is not valid percent-encoding (router marks it 400).
  if (error instanceof URIError) return new DomainError('VALIDATION_ERROR', 'The URL is not valid percent-encoding');
  const unavailable = databaseUnavailable(error);
  if (unavailable) return unavailable;
  // Any other client error an HTTP library raised (http-errors marks them `expose`): keep its status class.
  const status = http.status ?? http.statusCode;
  if (http.expose && status === 413) return new DomainError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (http.expose && status === 415) return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON');
  if (http.expose && status !== undefined && status >= 400 && status < 500) {
    return new DomainError('VALIDATION_ERROR', 'The request could not be read');
  }
  return internalError(error);
}
