// The Prisma client over a node-postgres pool (Prisma 7 needs a driver adapter).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type { PrismaClient } from '../generated/prisma/client.js';
export { Prisma } from '../generated/prisma/client.js';

/** A Prisma transaction client: what services receive inside `prisma.$transaction`. */
export type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export function createPrisma(connectionString: string, poolSize: number): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max: poolSize });
  return new PrismaClient({ adapter });
}
