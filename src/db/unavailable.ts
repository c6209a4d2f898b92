// Database failures that are not the request's fault and will likely pass:
// the server is stopped or unreachable, every pooled connection is busy, or a
// statement ran past its time limit; or, with a failover group (multi-host.ts),
// there is no primary for a moment. They become 503 SERVICE_UNAVAILABLE with
// Retry-After instead of 500. Anything else (a missing table, a constraint,
// a bug) stays an internal error.
//
// Errors arrive in three forms: node-postgres' own (the SQL fast paths use the
// pool directly; pool and socket errors pass through Prisma unchanged),
// Prisma's known request errors (P-codes), and the driver adapter's
// classification of a PostgreSQL error inside them (meta.driverAdapterError).
import { DomainError } from '../errors.js';

export type DatabaseTrouble = 'unreachable' | 'busy' | 'slow';

/** Seconds a client should wait before trying again, per kind of trouble. */
export const RETRY_AFTER_SECONDS: Record<DatabaseTrouble, number> = { unreachable: 5, busy: 1, slow: 2 };

const MESSAGES: Record<DatabaseTrouble, string> = {
  unreachable: 'The database is not reachable; retry later',
  busy: 'The service is busy; retry later',
  slow: 'The database did not answer in time; retry later',
};

// https://www.postgresql.org/docs/current/errcodes-appendix.html
const POSTGRES_CODES: Record<string, DatabaseTrouble> = {
  '57014': 'slow', // query_canceled: statement_timeout (or a cancel request)
  '55P03': 'slow', // lock_not_available: lock_timeout
  '57P01': 'unreachable', // admin_shutdown
  '57P02': 'unreachable', // crash_shutdown
  '57P03': 'unreachable', // cannot_connect_now: starting up or shutting down; no primary in a failover group (multi-host.ts)
  '25006': 'unreachable', // read_only_sql_transaction: the node was demoted to a standby under the session
  '3D000': 'unreachable', // invalid_catalog_name: the database is gone
  '53300': 'busy', // too_many_connections
};

const PRISMA_CODES: Record<string, DatabaseTrouble> = {
  P1001: 'unreachable', // can't reach the database server
  P1002: 'unreachable', // reached it, but it timed out
  P1017: 'unreachable', // the server closed the connection
  P2024: 'busy', // timed out fetching a connection from the pool
  P2028: 'busy', // interactive transaction could not start (or expired) in time
};

const ADAPTER_KINDS: Record<string, DatabaseTrouble> = {
  DatabaseNotReachable: 'unreachable',
  ConnectionClosed: 'unreachable',
  SocketTimeout: 'unreachable',
  DatabaseDoesNotExist: 'unreachable',
  TooManyConnections: 'busy',
};

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

// node-postgres raises these as plain Errors.
const NODE_POSTGRES_MESSAGES: [RegExp, DatabaseTrouble][] = [
  [/^timeout exceeded when trying to connect$/, 'busy'], // pool: connectionTimeoutMillis
  [/^Connection terminated/, 'unreachable'], // unexpectedly, or due to connection timeout
  [/^Client has encountered a connection error and is not queryable$/, 'unreachable'],
  [/^Cannot use a pool after calling end on the pool$/, 'unreachable'],
];

type Inspectable = {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } };
};

function troubleOfOne(error: Inspectable): DatabaseTrouble | undefined {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code && PRISMA_CODES[code]) return PRISMA_CODES[code];
  const adapter = error.meta?.driverAdapterError?.cause;
  if (adapter) {
    if (typeof adapter.kind === 'string' && ADAPTER_KINDS[adapter.kind]) return ADAPTER_KINDS[adapter.kind];
    const pgCode = adapter.originalCode ?? adapter.code;
    if (typeof pgCode === 'string' && POSTGRES_CODES[pgCode]) return POSTGRES_CODES[pgCode];
  }
  if (code && POSTGRES_CODES[code]) return POSTGRES_CODES[code];
  if (code && SOCKET_CODES.has(code)) return 'unreachable';
  const message = typeof error.message === 'string' ? error.message : '';
  return NODE_POSTGRES_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

/** What kind of passing database trouble `error` (or an error it wraps) is, if any. */
export function databaseTroubleOf(error: unknown): DatabaseTrouble | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const trouble = troubleOfOne(current as Inspectable);
    if (trouble) return trouble;
    current = (current as Inspectable).cause;
  }
  return undefined;
}

/** SERVICE_UNAVAILABLE with Retry-After for a passing database trouble; undefined for anything else. */
export function databaseUnavailable(error: unknown): DomainError | undefined {
  const trouble = databaseTroubleOf(error);
  if (!trouble) return undefined;
  return new DomainError('SERVICE_UNAVAILABLE', MESSAGES[trouble], undefined, {
    retryAfter: RETRY_AFTER_SECONDS[trouble],
    cause: error,
  });
}
