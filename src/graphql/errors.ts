// DomainError <-> GraphQL: every error leaves with extensions.code (the REST
// codes) and, for validation, extensions.field. Anything unexpected becomes
// INTERNAL_ERROR without its message, which may hold SQL or paths.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, internalError, isErrorCode } from '../errors.js';
import { databaseUnavailable } from '../db/unavailable.js';

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

/** The request field an Apollo message names: `variables`, or the 'query' search parameter. */
function requestFieldOf(message: string): string | undefined {
  return (
    /`(query|variables|operationName|extensions)`/.exec(message)?.[1] ?? /'(\w+)' search parameter/.exec(message)?.[1]
  );
}

/**
 * Apollo Server's errors about the HTTP request itself (not GET/POST, no query,
 * a body that is not a GraphQL request, CSRF prevention, an unknown persisted
 * query): the client's to fix, never INTERNAL_ERROR. The status Apollo chose
 * (its `extensions.http`) picks the code: 405 and 415 have codes of their own.
 */
function requestErrorOf(error: GraphQLError): DomainError | undefined {
  if (error.originalError) return undefined;
  const message = error.message.trim();
  switch (error.extensions?.code) {
    case 'BAD_REQUEST': {
      const status = (error.extensions.http as { status?: number } | undefined)?.status;
      if (status === 405) return new DomainError('METHOD_NOT_ALLOWED', message);
      if (status === 415) return new DomainError('UNSUPPORTED_MEDIA_TYPE', message);
      return new DomainError('VALIDATION_ERROR', message, requestFieldOf(message));
    }
    case 'PERSISTED_QUERY_NOT_FOUND':
      // The message stays Apollo's "PersistedQueryNotFound": APQ clients look for it to send the query.
      return new DomainError('NOT_FOUND', message);
    case 'PERSISTED_QUERY_NOT_SUPPORTED':
    case 'OPERATION_RESOLUTION_FAILURE':
      return new DomainError('VALIDATION_ERROR', message);
    default:
      return undefined;
  }
}

// graphql-js's parser at its maxTokens ("more that" is its spelling).
const TOO_MANY_TOKENS = /^Syntax Error: Document contains more th(?:an|at) (\d+) tokens/;
// graphql-js stops validating when comparing fields or expanding fragments would cost too much.
const VALIDATION_ABORTED = 'Validation aborted.';
const tooComplexToValidate = () =>
  new DomainError('VALIDATION_ERROR', 'The operation is too complex to validate (too many fields or fragments).');

/** The DomainError behind a GraphQL error, or a VALIDATION_ERROR/INTERNAL_ERROR in its place. */
export function domainErrorOf(error: GraphQLError): DomainError {
  const original = error.originalError;
  if (original instanceof DomainError) return original;
  const requestError = requestErrorOf(error);
  if (requestError) return requestError;
  if (error.message === VALIDATION_ABORTED) return tooComplexToValidate();
  const tokens = TOO_MANY_TOKENS.exec(error.message);
  if (tokens) return new DomainError('VALIDATION_ERROR', `Token limit of ${tokens[1]} exceeded: parsing stopped.`);
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
  // A database that is down, overloaded or too slow is a 503 to retry, not a fault of ours.
  return databaseUnavailable(original ?? error) ?? internalError(original ?? error);
}

/**
 * Apollo's codes for a document that does not parse or does not validate:
 * GraphQL clients (Apollo Client's error links, retry policies) look for them,
 * so they stay; both are 400, and an error of either names its field as ours do.
 */
export const GRAPHQL_DOCUMENT_CODES = ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED'] as const;
const APOLLO_DOCUMENT_CODES = new Set<string>(GRAPHQL_DOCUMENT_CODES);

function documentCodeOf(error: unknown, domain: DomainError): string | undefined {
  const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
  return domain.code === 'VALIDATION_ERROR' && typeof code === 'string' && APOLLO_DOCUMENT_CODES.has(code)
    ? code
    : undefined;
}

/** Apollo's formatError: the DomainError's code (or Apollo's, above) and field, and a log line for internal faults. */
export function graphQLErrorFormatter(logError: (cause: unknown) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const domain = error instanceof GraphQLError ? domainErrorOf(error) : internalError(error);
    if (domain.code === 'INTERNAL_ERROR') logError(domain.cause ?? error);
    const code = documentCodeOf(error, domain) ?? domain.code;
    return {
      message: domain.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code, ...(domain.field !== undefined && { field: domain.field }) },
    };
  };
}
