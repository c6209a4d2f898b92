// Transactions for the kit's writes (store.ts): one on a pooled connection,
// committed or rolled back, and a lazy one that begins only if its work reads
// or locks, so a create whose rule read nothing stays a single statement.
import type pg from 'pg';

/** Runs `work` in a transaction on one pooled connection: committed if it resolves, rolled back if it throws. */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const transaction = await begin(pool);
  let result: R;
  try {
    result = await work(transaction.client);
  } catch (error) {
    await transaction.end('rollback');
    throw error;
  }
  await transaction.end('commit');
  return result;
}

/** A connection taken from the pool with a transaction begun on it, and how that transaction ends. */
async function begin(pool: pg.Pool) {
  const client = await pool.connect();
  // A connection lost while checked out (the server stopping under a request) is
  // reported by the query in flight; without a listener it would also crash the process.
  const ignore = () => {};
  client.on('error', ignore);
  const release = (healthy: boolean) => {
    client.off('error', ignore);
    // A connection whose rollback failed is in an unknown state: it is not reused.
    client.release(healthy ? undefined : true);
  };
  try {
    await client.query('begin');
  } catch (error) {
    release(false);
    throw error;
  }
  return {
    client,
    /** Commits (a failure rolls back and is thrown) or rolls back (a failure only marks the connection); releases it. */
    async end(how: 'commit' | 'rollback') {
      let healthy = true;
      try {
        if (how === 'commit') return void (await client.query('commit'));
        await client.query('rollback').catch(() => (healthy = false));
      } catch (error) {
        await client.query('rollback').catch(() => (healthy = false));
        throw error;
      } finally {
        release(healthy);
      }
    },
  };
}

/**
 * A transaction that begins with the first statement run on it (`query`): work
 * whose rules read nothing (a department without a manager, a payment without an
 * invoice) writes with one statement on the pool instead of BEGIN, the statement
 * and COMMIT on a connection of its own. `begun` says which.
 */
export interface LazyTransaction {
  query: pg.PoolClient['query'];
  readonly begun: boolean;
}

/** Runs `work` with a LazyTransaction: committed if it began and `work` resolves, rolled back if it began and `work` throws. */
export async function inLazyTransaction<R>(pool: pg.Pool, work: (db: LazyTransaction) => Promise<R>): Promise<R> {
  let started: ReturnType<typeof begin> | undefined;
  const query = (async (...args: unknown[]) => {
    started ??= begin(pool);
    const { client } = await started;
    return (client.query as (...args: unknown[]) => Promise<pg.QueryResult>)(...args);
  }) as unknown as pg.PoolClient['query'];
  const db: LazyTransaction = {
    query,
    get begun() {
      return started !== undefined;
    },
  };
  let result: R;
  try {
    result = await work(db);
  } catch (error) {
    // A BEGIN that failed has released its connection already.
    const transaction = await started?.catch(() => undefined);
    await transaction?.end('rollback');
    throw error;
  }
  if (started) await (await started).end('commit');
  return result;
}
