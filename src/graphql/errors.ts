// DomainError <-> GraphQL: every error leaves with extensions.code (the REST
// codes) and, for validation, extensions.field. Anything unexpected becomes
// INTERNAL_ERROR without its message, which may hold SQL or paths.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, internalError, isErrorCode } from '../errors.js';

/**
 * The input field a graphql-js message names: `at "input.email"`,
 * `Field "email" of required type` / `Field "CreateContactInput.email" ...`, or `Variable "$page"`.
 */
function fieldOf(message: string): string | undefined {
  return (
    /at "[^".]+\.([^"]+)"/.exec(message)?.[1] ??
    /Field "(?:[^".]+\.)?([^"]+)" of required type/.exec(message)?.[1] ??
    /^Variable "\$([^"]+)"/.exec(message)?.[1]
  );
}

/** The DomainError behind a GraphQL error, or a VALIDATION_ERROR/INTERNAL_ERROR in its place. */
export function domainErrorOf(error: GraphQLError): DomainError {
  const original = error.originalError;
  if (original instanceof DomainError) return original;
  if (original && original instanceof GraphQLError) {
    // A variable that failed coercion: the outer message says which variable and where.
    const inner = domainErrorOf(original);
    if (inner.code !== 'VALIDATION_ERROR') return inner;
    return new DomainError('VALIDATION_ERROR', error.message, fieldOf(error.message) ?? inner.field);
  }
  const code = error.extensions?.code;
  if (!original && (code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED' || !code)) {
    // Raised by graphql-js itself: the document or its variables are invalid.
    return new DomainError('VALIDATION_ERROR', error.message, fieldOf(error.message));
  }
  if (isErrorCode(code) && !original) return new DomainError(code, error.message);
  return internalError(original ?? error);
}

/** Apollo's formatError: the DomainError's code and field, and a log line for internal faults. */
export function graphQLErrorFormatter(logError: (cause: unknown) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const domain = error instanceof GraphQLError ? domainErrorOf(error) : internalError(error);
    if (domain.code === 'INTERNAL_ERROR') logError(domain.cause ?? error);
    return {
      message: domain.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: domain.code, ...(domain.field !== undefined && { field: domain.field }) },
    };
  };
}
