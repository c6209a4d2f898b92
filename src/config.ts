// Every setting the service reads from the environment, parsed and validated once.
// An invalid value stops the process with a message naming the variable.
import path from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: integer(3000, 0, 65535),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_SIZE: integer(10, 1, 500),
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
  GRAPHQL_MAX_COST: integer(20_000, 100, 1_000_000_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TLS_CERT_FILE: optionalString,
  TLS_KEY_FILE: optionalString,
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config {
  nodeEnv: Environment['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string;
  /** Unset: the service starts an embedded PostgreSQL under dataDir. */
  databaseUrl?: string;
  databasePoolSize: number;
  dataDir: string;
  embeddedPostgresPort: number;
  redisUrl?: string;
  rateLimit: { max: number; windowSeconds: number };
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
  logLevel: Environment['LOG_LEVEL'];
  tls?: { certFile: string; keyFile: string };
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
  const scheme = e.TLS_CERT_FILE ? 'https' : 'http';
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `${scheme}://${shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedPostgresPort: e.EMBEDDED_PG_PORT,
    redisUrl: e.REDIS_URL,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    graphqlLimits: {
      maxDocumentBytes: e.GRAPHQL_MAX_DOCUMENT_BYTES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxFields: e.GRAPHQL_MAX_FIELDS,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    logLevel: e.LOG_LEVEL,
    tls: e.TLS_CERT_FILE && e.TLS_KEY_FILE ? { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE } : undefined,
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
