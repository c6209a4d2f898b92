// Every setting the service reads from the environment, parsed and validated once.
// An invalid value stops the process with a message naming the variable.
import path from 'node:path';
import type { ServerKey } from './auth/server-keys.js';
import { environmentSchema, keyRequiredBecause, type Environment, type TrustProxy } from './config-environment.js';
import { isLoopbackHost, localConveniencesFor, type LocalConveniences } from './local-conveniences.js';

export type { Environment, TrustProxy };

export interface Config {
  /** Unset when NODE_ENV is: not development (src/local-conveniences.ts). */
  nodeEnv: Environment['NODE_ENV'];
  /** NODE_ENV=production, said explicitly. */
  isProduction: boolean;
  /**
   * On (with the reason): the policies are relaxed for a developer's machine; null: strict.
   * Read it when deciding: a request through a proxy sets it to null (proxyWatch).
   */
  localConveniences: LocalConveniences | null;
  host: string;
  port: number;
  publicUrl: string;
  /** Express's `trust proxy`: whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  trustProxy: TrustProxy;
  /** Unset: the service starts an embedded PostgreSQL under dataDir. */
  databaseUrl?: string;
  /**
   * A direct connection (migrations, LISTEN, the worker, advisory locks); unset:
   * databaseUrl. Set and different: databaseUrl is a transaction pooler's.
   */
  databaseDirectUrl?: string;
  databasePoolSize: number;
  /** Wait for a free pooled connection before answering 503. */
  databasePoolTimeoutMs: number;
  /** statement_timeout of the API's database sessions; 0: none. */
  databaseStatementTimeoutMs: number;
  dataDir: string;
  embeddedPostgresPort: number;
  redisUrl?: string;
  rateLimit: { max: number; windowSeconds: number };
  /** Requests without a valid credential, counted per client address. */
  unauthenticatedRateLimit: { max: number; windowSeconds: number };
  bodyLimitBytes: number;
  /** What one GraphQL operation may ask for; see GraphQLLimits. */
  graphqlLimits: {
    maxDocumentBytes: number;
    maxTokens: number;
    maxDepth: number;
    maxAliases: number;
    maxFields: number;
    maxCost: number;
  };
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  logLevel: Environment['LOG_LEVEL'];
  tls?: { certFile: string; keyFile: string };
  webhooks: {
    /** The current master key; unset: a development key under dataDir (never in production). */
    secretKey?: ServerKey;
    /** Earlier master keys, to open what was sealed under them. */
    previousSecretKeys: ServerKey[];
    /** How long a replaced signing secret still signs beside the new one; 0: not at all. */
    secretRotationGraceSeconds: number;
    timeoutMs: number;
    retryBaseMs: number;
    disableAfterFailures: number;
    deliveryRetentionDays: number;
  };
  eventRetentionDays: number;
  /** Days the change feed keeps its changes: an older cursor is 410 CURSOR_EXPIRED. */
  changeRetentionDays: number;
  exportRetentionDays: number;
  /** What one export may hold, and how many an organization may have pending or running. */
  exportLimits: ExportLimits;
  /** The largest import file, in bytes (decoded). */
  importMaxBytes: number;
  /** Days a finished import is kept after it ended. */
  importRetentionDays: number;
  /** enabled: `npm start` runs the worker in its process. */
  worker: { enabled: boolean; concurrency: number; pollIntervalMs: number; recoverIntervalMs: number };
  oauth: {
    accessTokenLifetimeSeconds: number;
    refreshTokenLifetimeSeconds: number;
    /** Failed sign-ins per account and per client address, per window. */
    signIn: { maxFailuresPerAccount: number; maxFailuresPerAddress: number; windowSeconds: number };
    /** A session unused this long ends, before its absolute end. */
    sessionIdleTimeoutSeconds: number;
  };
  /** scrypt's N for new password hashes; weaker stored hashes are re-hashed at sign-in. */
  passwordScryptN: number;
  /** The Prometheus listener (/metrics); unset: none. */
  metrics?: MetricsListener;
}

export interface ExportLimits {
  maxRows: number;
  maxBytes: number;
  maxPending: number;
}

export interface MetricsListener {
  host: string;
  port: number;
  /** A scrape must send `Authorization: Bearer <token>`; unset: any client that reaches host:port. */
  token?: string;
}

export class ConfigError extends Error {}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.TLS_CERT_FILE) !== Boolean(e.TLS_KEY_FILE)) {
    throw new ConfigError('Invalid configuration:\n  TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  if (e.HTTP_HEADERS_TIMEOUT_S > e.HTTP_REQUEST_TIMEOUT_S) {
    throw new ConfigError(
      'Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_S must not be greater than HTTP_REQUEST_TIMEOUT_S',
    );
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_DIRECT_URL needs DATABASE_URL (without it the embedded PostgreSQL is used)',
    );
  }
  if (e.METRICS_PORT && !e.METRICS_TOKEN && !isLoopbackHost(e.METRICS_HOST)) {
    throw new ConfigError(
      `Invalid configuration:\n  METRICS_TOKEN is required when METRICS_HOST (${e.METRICS_HOST}) is not loopback: ` +
        'the metrics name routes, tasks and volumes',
    );
  }
  const keyRequired = keyRequiredBecause(e);
  if (keyRequired && !e.WEBHOOK_SECRET_KEY) {
    throw new ConfigError(
      `Invalid configuration:\n  WEBHOOK_SECRET_KEY is required ${keyRequired}: give every process the same key ` +
        '(base64 of 32 random bytes: openssl rand -base64 32)',
    );
  }
  const keyIds = [e.WEBHOOK_SECRET_KEY, ...(e.WEBHOOK_SECRET_PREVIOUS_KEYS ?? [])].flatMap((key) => key?.id ?? []);
  if (new Set(keyIds).size !== keyIds.length) {
    throw new ConfigError(
      'Invalid configuration:\n  WEBHOOK_SECRET_PREVIOUS_KEYS: two keys (with WEBHOOK_SECRET_KEY) have the same id',
    );
  }
  const scheme = e.TLS_CERT_FILE ? 'https' : 'http';
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    localConveniences: localConveniencesFor({
      nodeEnv: e.NODE_ENV,
      databaseUrl: e.DATABASE_URL,
      host: e.HOST,
      publicUrl: e.PUBLIC_URL,
    }),
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `${scheme}://${shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePoolTimeoutMs: e.DATABASE_POOL_TIMEOUT_MS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedPostgresPort: e.EMBEDDED_PG_PORT,
    redisUrl: e.REDIS_URL,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    unauthenticatedRateLimit: {
      max: e.RATE_LIMIT_UNAUTHENTICATED_MAX ?? e.RATE_LIMIT_MAX,
      windowSeconds: e.RATE_LIMIT_WINDOW_S,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    graphqlLimits: {
      maxDocumentBytes: e.GRAPHQL_MAX_DOCUMENT_BYTES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxFields: e.GRAPHQL_MAX_FIELDS,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_S * 1000,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_S * 1000,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_S * 1000,
    },
    logLevel: e.LOG_LEVEL,
    tls: e.TLS_CERT_FILE && e.TLS_KEY_FILE ? { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE } : undefined,
    webhooks: {
      secretKey: e.WEBHOOK_SECRET_KEY,
      previousSecretKeys: e.WEBHOOK_SECRET_PREVIOUS_KEYS ?? [],
      secretRotationGraceSeconds: e.WEBHOOK_SECRET_ROTATION_GRACE_S,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
      deliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
    },
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    changeRetentionDays: e.CHANGE_RETENTION_DAYS,
    exportRetentionDays: e.EXPORT_RETENTION_DAYS,
    exportLimits: { maxRows: e.EXPORT_MAX_ROWS, maxBytes: e.EXPORT_MAX_BYTES, maxPending: e.EXPORT_MAX_PENDING },
    importMaxBytes: e.IMPORT_MAX_BYTES,
    importRetentionDays: e.IMPORT_RETENTION_DAYS,
    worker: {
      enabled: e.WORKER === 'on',
      concurrency: e.WORKER_CONCURRENCY,
      pollIntervalMs: e.WORKER_POLL_INTERVAL_MS,
      recoverIntervalMs: e.WORKER_RECOVER_INTERVAL_MS,
    },
    oauth: {
      accessTokenLifetimeSeconds: e.OAUTH_ACCESS_TOKEN_LIFETIME_S,
      refreshTokenLifetimeSeconds: e.OAUTH_REFRESH_TOKEN_LIFETIME_S,
      signIn: {
        maxFailuresPerAccount: e.SIGN_IN_MAX_FAILURES,
        maxFailuresPerAddress: e.SIGN_IN_ADDRESS_MAX_FAILURES,
        windowSeconds: e.SIGN_IN_WINDOW_S,
      },
      sessionIdleTimeoutSeconds: e.SESSION_IDLE_TIMEOUT_S,
    },
    passwordScryptN: e.PASSWORD_SCRYPT_N,
    metrics: e.METRICS_PORT ? { host: e.METRICS_HOST, port: e.METRICS_PORT, token: e.METRICS_TOKEN } : undefined,
  };
}

/** For entry points: parse, or print the problem and exit. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}
