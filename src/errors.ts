// One error type for the whole service: a code from a fixed list, a message
// safe to show, and for validation the offending field. Each transport maps it:
// REST to the specification's envelope, GraphQL to extensions.code/field.
export const ERROR_STATUS = {
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
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
  retryAfter?: number;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly retryAfter?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'DomainError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
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
/** A fault the caller cannot fix; the cause is logged, never shown. */
export const internalError = (cause?: unknown) =>
  new DomainError('INTERNAL_ERROR', 'An internal error occurred', undefined, undefined, { cause });

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
