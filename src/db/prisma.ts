// The Prisma client over a node-postgres pool (Prisma 7 needs a driver adapter).
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type { PrismaClient } from '../generated/prisma/client.js';
export { Prisma } from '../generated/prisma/client.js';

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

export function createPrisma(
  connectionString: string,
  poolSize: number,
  onPoolError?: (error: Error) => void,
): PrismaClient {
  const adapter = new PrismaPg(
    { connectionString, max: poolSize },
    { statementNameGenerator: statementNames(), onPoolError },
  );
  return new PrismaClient({ adapter });
}
