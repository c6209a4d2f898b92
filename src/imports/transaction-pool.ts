// The resource's own service, run inside the import's transaction: a pg.Pool
// look-alike over one client, so each row is written by the kit's one write path
// (its validation, rules, numbering and events) while the import decides when to
// commit (a batch at a time, or once for an atomic import, never for a dry run).
// A transaction the service opens for itself (a rule that reads first) becomes a
// savepoint. `aborted` tells the import that a statement failed outside any
// savepoint, leaving the transaction unusable until it rolls back.
import type pg from 'pg';

export interface TransactionPool {
  pool: pg.Pool;
  /** A statement failed with no savepoint around it: the transaction must roll back. */
  aborted(): boolean;
  /** After the import rolled back to a savepoint of its own. */
  recovered(): void;
}

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;

export function transactionPool(client: pg.PoolClient): TransactionPool {
  let depth = 0;
  let aborted = false;
  const query: Query = async (...args) => {
    try {
      return await (client.query as unknown as Query)(...args);
    } catch (error) {
      if (depth === 0) aborted = true;
      throw error;
    }
  };
  // inTransaction (kit/store.ts) sends exactly these words.
  const nested: Query = async (...args) => {
    const [text] = args;
    if (text === 'begin') {
      depth++;
      return query(`savepoint kit_${depth}`);
    }
    if (text === 'commit') {
      const result = await query(`release savepoint kit_${depth}`);
      depth--;
      return result;
    }
    if (text === 'rollback') {
      try {
        return await query(`rollback to savepoint kit_${depth}`);
      } finally {
        depth--;
      }
    }
    return query(...args);
  };
  const pooled = { query: nested, on: () => pooled, off: () => pooled, release: () => {} };
  const pool = { query, connect: async () => pooled } as unknown as pg.Pool;
  return {
    pool,
    aborted: () => aborted,
    recovered: () => {
      aborted = false;
    },
  };
}
