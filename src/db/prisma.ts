// The Prisma client over a node-postgres pool (Prisma 7 needs a driver adapter).
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';

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
}

export function connectDatabase(
  connectionString: string,
  poolSize: number,
  onPoolError?: (error: Error) => void,
): DatabaseClients {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  const adapter = new PrismaPg(pool, {
    statementNameGenerator: statementNames(),
    onPoolError,
    // prisma.$disconnect() ends the pool.
    disposeExternalPool: true,
  });
  return { prisma: new PrismaClient({ adapter }), pool };
}
