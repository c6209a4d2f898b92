// Reads that must agree with each other (a page and its total over a log written
// all the time): one connection, one repeatable-read snapshot.
import type pg from 'pg';
import type { Queryable } from './store.js';

/** Runs `read` in a read-only repeatable-read transaction on one connection of `pool`. */
export async function inSnapshot<R>(pool: pg.Pool, read: (client: Queryable) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  // A connection lost while checked out (a restart, a failover) is reported by the query
  // in flight; without a listener its 'error' event would also end the process.
  const ignore = () => {};
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('begin isolation level repeatable read read only');
    const result = await read(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((failed: Error) => (broken = failed));
    throw error;
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}

/** Every row matching `where`, counted exactly (no cap: the snapshot's total is the page's). */
export async function countAll(db: Queryable, quotedTable: string, where: { sql: string; params: unknown[] }) {
  const { rows } = await db.query<{ total: number }>({
    text: `select count(*)::int as total from ${quotedTable} where ${where.sql}`,
    values: where.params,
  });
  return { total: rows[0]!.total };
}
