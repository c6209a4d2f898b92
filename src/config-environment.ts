// The environment variables the service reads, as one zod schema (config.ts turns
// them into the Config every module is given), and the checks that need more than it.
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseServerKey, type ServerKey } from './auth/server-keys.js';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** A master key (src/auth/server-keys.ts): `<base64 of 32 bytes>` or `<id>:<base64>`. */
const serverKey = z.string().transform((value, context): ServerKey => {
  const key = parseServerKey(value);
  if (typeof key === 'string') {
    context.addIssue({ code: 'custom', message: key });
    return z.NEVER;
  }
  return key;
});

const serverKeyList = z.string().transform((value, context): ServerKey[] => {
  const keys: ServerKey[] = [];
  // Blank entries (a trailing comma) are skipped.
  for (const [index, text] of value
    .split(',')
    .filter((entry) => entry.trim())
    .entries()) {
    const key = parseServerKey(text);
    if (typeof key === 'string') context.addIssue({ code: 'custom', message: `key ${index + 1} ${key}` });
    else keys.push(key);
  }
  return keys;
});

export const environmentSchema = z.object({
  // Unset is not development: the strict policies hold unless local conveniences are on
  // (src/local-conveniences.ts).
  NODE_ENV: optionalString.pipe(z.enum(['development', 'production', 'test']).optional()),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: integer(3000, 0, 65535),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  // Which proxies' X-Forwarded-For/-Proto to believe, as Express's `trust proxy` takes it.
  TRUST_PROXY: optionalString.transform((value, ctx) => {
    const parsed = parseTrustProxy(value ?? 'loopback');
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }
    return parsed;
  }),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .optional(),
  ),
  // A direct connection to the same database, when DATABASE_URL leads to a transaction
  // pooler (PgBouncer): migrations, LISTEN, the worker and advisory locks need a session.
  DATABASE_DIRECT_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_SIZE: integer(10, 1, 500),
  // How long a request waits for a free pooled connection before a 503 (Retry-After).
  DATABASE_POOL_TIMEOUT_MS: integer(2000, 1, 60_000),
  // PostgreSQL's statement_timeout on the API's sessions (behind PgBouncer: its transactions); 0 turns it off.
  DATABASE_STATEMENT_TIMEOUT_MS: integer(5000, 0, 3_600_000),
  DATA_DIR: z.string().min(1).default('.data'),
  EMBEDDED_PG_PORT: integer(54329, 1, 65535),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  RATE_LIMIT_MAX: integer(600, 1, 1_000_000_000),
  RATE_LIMIT_WINDOW_S: integer(60, 1, 86_400),
  // Requests without a valid credential, per client address; unset: RATE_LIMIT_MAX.
  RATE_LIMIT_UNAUTHENTICATED_MAX: optionalString.pipe(
    z.coerce.number<string>().int().min(1).max(1_000_000_000).optional(),
  ),
  BODY_LIMIT_BYTES: integer(1_048_576, 1024, 100 * 1_048_576),
  // Limits on each GraphQL operation, checked before it runs (src/http/graphql-limits.ts).
  // The document's size in bytes.
  GRAPHQL_MAX_DOCUMENT_BYTES: integer(65_536, 1024, 100 * 1_048_576),
  // Its tokens, counted by the parser. At most 2,000: graphql-js parses recursively,
  // and a document of N tokens can nest N/2 deep.
  GRAPHQL_MAX_TOKENS: integer(1_000, 50, 2_000),
  // Nesting of the answer (fragments flattened); GraphQL tools' introspection query needs 15.
  GRAPHQL_MAX_DEPTH: integer(20, 3, 100),
  // Aliased fields (aliases of __typename are free).
  GRAPHQL_MAX_ALIASES: integer(15, 0, 10_000),
  // Selections with fragments expanded.
  GRAPHQL_MAX_FIELDS: integer(1_000, 20, 1_000_000),
  // Each field costs 1 plus its selection, which a list counts `limit` times (50 by default).
  // The full introspection query of GraphQL tools must fit: it grows with the schema
  // (about 21,000 with the webhook types), hence 30,000.
  GRAPHQL_MAX_COST: integer(30_000, 100, 1_000_000_000),
  // A client has this long to send its headers, and the whole request; an idle
  // keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_S.
  HTTP_HEADERS_TIMEOUT_S: integer(10, 1, 600),
  HTTP_REQUEST_TIMEOUT_S: integer(30, 1, 3600),
  HTTP_KEEP_ALIVE_TIMEOUT_S: integer(65, 1, 3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TLS_CERT_FILE: optionalString,
  TLS_KEY_FILE: optionalString,
  // Webhooks (docs/decisions.md, Webhooks). The server's master key (src/auth/server-keys.ts),
  // which encrypts signing secrets and stored idempotent answers at rest: base64 of 32
  // bytes, or <id>:<base64>; unset outside production, one is generated under DATA_DIR.
  WEBHOOK_SECRET_KEY: optionalString.pipe(serverKey.optional()),
  // Earlier master keys, comma-separated, kept to read what was written under them.
  WEBHOOK_SECRET_PREVIOUS_KEYS: optionalString.pipe(serverKeyList.optional()),
  // After a rotation the replaced signing secret still signs (beside the new one) this long; 0: cut over at once.
  WEBHOOK_SECRET_ROTATION_GRACE_S: integer(86_400, 0, 30 * 86_400),
  WEBHOOK_TIMEOUT_MS: integer(5000, 100, 60_000),
  // The first retry's delay; then 4 and 16 times it (1, 4, 16 minutes by default), ±10%.
  WEBHOOK_RETRY_BASE_MS: integer(60_000, 1, 86_400_000),
  // An endpoint is disabled after this many events in a row failed every attempt.
  WEBHOOK_DISABLE_AFTER_FAILURES: integer(5, 1, 10_000),
  WEBHOOK_DELIVERY_RETENTION_DAYS: integer(30, 1, 3650),
  EVENT_RETENTION_DAYS: integer(30, 1, 3650),
  // The change feed (GET /v1/changes) keeps its changes, and so its cursors, this long.
  CHANGE_RETENTION_DAYS: integer(90, 1, 3650),
  // Export files (and their exports) are deleted this long after they were asked for.
  EXPORT_RETENTION_DAYS: integer(7, 1, 3650),
  // Bounds on exports (docs/decisions.md, Exports): rows and bytes of one file (more fails the
  // export, saying why), and exports pending or running per organization (one more is a 409).
  EXPORT_MAX_ROWS: integer(1_000_000, 1, 1_000_000_000),
  EXPORT_MAX_BYTES: integer(1_073_741_824, 1024, 1_099_511_627_776),
  EXPORT_MAX_PENDING: integer(5, 1, 1000),
  // Finished imports (completed or failed; their files went when they ended) are deleted this long after.
  IMPORT_RETENTION_DAYS: integer(7, 1, 3650),
  // The largest file POST /v1/imports takes (decoded bytes; more is a 413). Default 50 MB.
  IMPORT_MAX_BYTES: integer(52_428_800, 1024, 10_737_418_240),
  // The background worker (webhook deliveries, pruning) inside `npm start`; `npm run worker` runs it alone.
  WORKER: z.enum(['on', 'off']).default('on'),
  WORKER_CONCURRENCY: integer(20, 1, 1000),
  // How often the worker looks for jobs that became due (scheduled retries); new jobs arrive at once.
  WORKER_POLL_INTERVAL_MS: integer(1000, 10, 60_000),
  // How often each worker process looks for jobs left locked by a worker process that died.
  WORKER_RECOVER_INTERVAL_MS: integer(30_000, 100, 3_600_000),
  // Prometheus metrics (docs/decisions.md, Operations): a listener of their own, off unless METRICS_PORT is set.
  METRICS_PORT: optionalString.pipe(z.coerce.number<string>().int().min(1).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Bearer token a scrape must send; required when METRICS_HOST is not loopback.
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  // OAuth (docs/decisions.md, Authorization service): token lifetimes in seconds.
  OAUTH_ACCESS_TOKEN_LIFETIME_S: integer(3600, 60, 86_400),
  OAUTH_REFRESH_TOKEN_LIFETIME_S: integer(30 * 86_400, 3600, 365 * 86_400),
  // Failed sign-ins allowed per account and per client address within SIGN_IN_WINDOW_S.
  SIGN_IN_MAX_FAILURES: integer(5, 1, 1000),
  SIGN_IN_ADDRESS_MAX_FAILURES: integer(20, 1, 100_000),
  SIGN_IN_WINDOW_S: integer(900, 1, 86_400),
  // scrypt's cost N for new password hashes (r=8, p=1): OWASP's 2^17 by default. Lower
  // only where hashing time matters more than guessing (the test suite hashes hundreds).
  PASSWORD_SCRYPT_N: integer(2 ** 17, 2 ** 14, 2 ** 20).refine(
    (n) => (n & (n - 1)) === 0,
    'must be a power of two (16384 to 1048576)',
  ),
  // A signed-in browser idle this long is signed out (its absolute end is 12 hours after sign-in).
  // At least 2 minutes: activity is recorded to the minute.
  SESSION_IDLE_TIMEOUT_S: integer(1800, 120, 12 * 3600),
});

export type Environment = z.infer<typeof environmentSchema>;

/** Express's `trust proxy`: no proxy, the number of hops in front, or addresses, subnets and their names. */
export type TrustProxy = false | number | string[];

/**
 * Why the master key must be given rather than generated under DATA_DIR, if it
 * must: processes on other hosts would each generate their own, and could not
 * read the secrets the others sealed. Only the embedded database (every process
 * on this host, one DATA_DIR) or a developer's explicit development or test
 * setting may use a generated key.
 */
export function keyRequiredBecause(e: Environment): string | undefined {
  if (e.NODE_ENV === 'production') return 'in production';
  if (e.DATABASE_URL && e.NODE_ENV === undefined) {
    return 'with DATABASE_URL (processes on other hosts would generate keys of their own)';
  }
  return undefined;
}

const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY's value, or why it is refused. */
function parseTrustProxy(value: string): TrustProxy | string {
  if (value === 'false') return false;
  if (value === 'true') {
    return 'true would believe any X-Forwarded-For a client sends: give the number of proxies in front of the service, or their addresses';
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 10 ? hops : 'must be at most 10 hops';
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!TRUST_PROXY_NAMES.includes(entry) && !isAddressOrSubnet(entry)) {
      return `${JSON.stringify(entry)} is not an IP address, a subnet (address/prefix) or one of ${TRUST_PROXY_NAMES.join(', ')}`;
    }
  }
  return entries;
}

function isAddressOrSubnet(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
