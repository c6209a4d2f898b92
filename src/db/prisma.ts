// The Prisma client over a node-postgres pool (Prisma 7 needs a driver adapter).
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { allowDryRuns } from './dry-run.js';
import { connectionConfig } from './multi-host.js';
import { trackPoolClosing } from './pool-closing.js';
import { transactionPoolingClient } from './transaction-pooling.js';

export type { PrismaClient } from '../generated/prisma/client.js';
import { Prisma } from '../generated/prisma/client.js';

export { Prisma };

/** A Prisma transaction client: what services receive inside `prisma.$transaction`. */
export type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * Names each distinct SQL text so node-postgres prepares it once per connection
 * and then only binds and executes: PostgreSQL skips parsing and planning.
 */
function statementNames(): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (!name) {
      name = `prisma_${createHash('sha1').update(sql).digest('hex')}`;
      if (names.size < 5_000) names.set(sql, name);
    }
    return name;
  };
}

/** The Prisma client and, for the few hot reads written in SQL, the pg pool beneath it. */
export interface DatabaseClients {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** Disconnects Prisma and resolves once the pool's last connection has closed. */
  disconnect(): Promise<void>;
}

export interface SessionLimits {
  /**
   * PostgreSQL's statement_timeout for every session of the pool (behind a
   * transaction pooler: for every transaction); 0 or unset: none.
   */
  statementTimeoutMs?: number;
  /**
   * How long a query or transaction waits for a free connection (pool exhausted,
   * or a connection that takes long to open) before failing; unset: forever.
   */
  poolTimeoutMs?: number;
  /**
   * The connection string leads to a transaction pooler (PgBouncer): no named
   * statements, no session state (src/db/transaction-pooling.ts).
   */
  pooled?: boolean;
}

export function connectDatabase(
  connectionString: string,
  poolSize: number,
  onPoolError?: (error: Error) => void,
  { statementTimeoutMs, poolTimeoutMs, pooled }: SessionLimits = {},
): DatabaseClients {
  // A multi-host URL (a failover group) gets a Client that finds the primary (multi-host.ts).
  const connection = connectionConfig(
    connectionString,
    pooled ? transactionPoolingClient(statementTimeoutMs) : pg.Client,
  );
  const pool = new pg.Pool({
    ...connection,
    max: poolSize,
    // Sent in each session's startup packet: no round trip, and it cannot be lost by a reset.
    ...(!pooled && statementTimeoutMs && { statement_timeout: statementTimeoutMs }),
    ...(poolTimeoutMs && { connectionTimeoutMillis: poolTimeoutMs }),
  });
  const closing = trackPoolClosing(pool);
  // A request may run as a dry run (`Prefer: dry-run`): see dry-run.ts.
  allowDryRuns(pool);
  const adapter = new PrismaPg(pool, {
    ...(!pooled && { statementNameGenerator: statementNames() }),
    onPoolError,
    // prisma.$disconnect() ends the pool.
    disposeExternalPool: true,
  });
  // A transaction waits for its connection a little longer than the pool lets it,
  // so the pool's own timeout (which withdraws the request) is the one that fires.
  const transactionOptions = poolTimeoutMs ? { maxWait: poolTimeoutMs + 500 } : undefined;
  const prisma = new PrismaClient({ adapter, transactionOptions });
  const disconnect = async () => {
    await prisma.$disconnect();
    await closing.closed();
  };
  return { prisma, pool, disconnect };
}
