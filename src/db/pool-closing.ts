// pool.end() resolves once no connection is checked out, while the connections
// it just asked to end may still be open. PostgreSQL stopped at that moment (the
// embedded one at shutdown) terminates those sessions, and each one's client
// reports "terminating connection due to administrator command" as an error.
import type pg from 'pg';

export interface PoolClosing {
  /** Ends the pool and resolves when every connection it opened has closed. */
  end(): Promise<void>;
  /** After the pool was ended by someone else (Prisma's $disconnect): resolves when its last connection has closed. */
  closed(): Promise<void>;
}

/** Counts a pool's connections from now on, so that closing it can wait for the last one. */
export function trackPoolClosing(pool: pg.Pool): PoolClosing {
  let open = 0;
  const waiting: (() => void)[] = [];
  pool.on('connect', () => open++);
  // The pool emits 'remove' once a connection's end() has finished: idle timeout, error, or pool.end().
  pool.on('remove', () => {
    open--;
    if (open === 0) waiting.splice(0).forEach((resolve) => resolve());
  });
  const closed = () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  return {
    async end() {
      await pool.end();
      await closed();
    },
    closed,
  };
}
