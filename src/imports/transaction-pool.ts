// The resource's own service, run inside the import's transaction: a pg.Pool
// look-alike over one client, so each row is written by the kit's one write path
// (its validation, rules, numbering and events) while the import decides when to
// commit (a batch at a time, or once for an atomic import, never for a dry run).
// A transaction the service opens for itself (a rule that reads first) becomes a
// savepoint, during which the other rows' statements wait. `aborted` tells the import that a statement failed outside any
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
  // While a service's own transaction (a savepoint) is open, other rows' statements wait:
  // one of theirs inside it would be rolled back with it.
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  // The client's statements one after another, in the order asked (pg itself would warn at a second
  // query sent before the first answered).
  let tail: Promise<unknown> = Promise.resolve();
  const run: Query = (...args) => {
    const result = tail.then(() => (client.query as unknown as Query)(...args));
    tail = result.catch(() => {
      if (depth === 0) aborted = true;
    });
    return result;
  };
  // Without a gate the statement is queued on the client at once, so rows keep their order.
  const query: Query = (...args) => (gate ? gate.then(() => query(...args)) : run(...args));
  // inTransaction (kit/store.ts) sends exactly these words.
  const nested: Query = async (...args) => {
    const [text] = args;
    if (text === 'begin') {
      depth++;
      return run(`savepoint kit_${depth}`);
    }
    if (text === 'commit') {
      const result = await run(`release savepoint kit_${depth}`);
      depth--;
      return result;
    }
    if (text === 'rollback') {
      try {
        return await run(`rollback to savepoint kit_${depth}`);
      } finally {
        depth--;
      }
    }
    return run(...args);
  };
  const connect = async () => {
    while (gate) await gate;
    gate = new Promise<void>((resolve) => (open = resolve));
    const pooled = {
      query: nested,
      on: () => pooled,
      off: () => pooled,
      release: () => {
        const wake = open;
        gate = undefined;
        open = undefined;
        wake?.();
      },
    };
    return pooled;
  };
  const pool = { query, connect } as unknown as pg.Pool;
  return {
    pool,
    aborted: () => aborted,
    recovered: () => {
      aborted = false;
    },
  };
}
