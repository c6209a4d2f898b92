// One error type for the whole service: a code from a fixed list, a message
// safe to show, for validation the offending field, and for rate limiting the
// seconds to wait. It knows nothing of HTTP: each transport maps the code
// (src/http/errors.ts for REST and /graphql, later OAuth's RFC 6749 errors).
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'CURSOR_EXPIRED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
  retryAfter?: number;
}

export interface DomainErrorOptions extends ErrorOptions {
  /** Seconds after which a retry may succeed (RATE_LIMIT_EXCEEDED). */
  retryAfter?: number;
}

export class DomainError extends Error {
  readonly retryAfter?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    options?: DomainErrorOptions,
  ) {
    super(message, options);
    this.name = 'DomainError';
    this.retryAfter = options?.retryAfter;
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.field !== undefined && { field: this.field }),
      ...(this.retryAfter !== undefined && { retryAfter: this.retryAfter }),
    };
  }
}

export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
/** 400 naming the field: `'field': message`. */
export const invalidField = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', `'${field}': ${message}`, field);
/** A fault the caller cannot fix; the cause is logged, never shown. */
export const internalError = (cause?: unknown) =>
  new DomainError('INTERNAL_ERROR', 'An internal error occurred', undefined, { cause });

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
