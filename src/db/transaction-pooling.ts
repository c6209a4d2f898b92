// Connections through a transaction pooler (PgBouncer's pool_mode=transaction):
// consecutive transactions of one client may run on different server
// connections, so nothing may live in the session. Two things the direct path
// relies on are therefore changed here, for every query of the pool whoever
// sends it (Prisma, the resource kit, the rate-limit store):
// - no named prepared statement: the name is dropped and the query runs as an
//   unnamed one, which lives only as long as the query (PgBouncer before 1.21
//   does not track named statements: "prepared statement … already exists");
// - no statement_timeout in the startup packet (PgBouncer refuses it): each
//   transaction sets it with SET LOCAL, sent with its BEGIN in one round trip.
// Single statements outside a transaction get the server's default for the
// role (ALTER ROLE … SET statement_timeout, docs/decisions.md).
import pg from 'pg';

/** A BEGIN alone (the way Prisma and our own code open transactions). */
const BEGIN = /^\s*(begin|start transaction)\b[^;]*$/i;

/**
 * The pg.Client class of a pool behind a transaction pooler: names dropped,
 * and, when statementTimeoutMs is given, every BEGIN followed by
 * `SET LOCAL statement_timeout` (0 included: the setting then holds over the role's default).
 */
export function transactionPoolingClient(statementTimeoutMs?: number): typeof pg.Client {
  const setLocal =
    statementTimeoutMs === undefined ? '' : `; set local statement_timeout = ${Math.trunc(statementTimeoutMs)}`;
  const rewrite = (config: unknown): unknown => {
    if (typeof config === 'string') return BEGIN.test(config) ? config + setLocal : config;
    if (!config || typeof config !== 'object' || typeof (config as pg.Submittable).submit === 'function') {
      return config;
    }
    const { name, ...query } = config as pg.QueryConfig;
    // A BEGIN without parameters goes as a simple query, which may carry a second statement.
    if (setLocal && typeof query.text === 'string' && BEGIN.test(query.text) && !query.values?.length) {
      return { ...query, text: query.text + setLocal };
    }
    return name === undefined ? config : query;
  };
  return class TransactionPoolingClient extends pg.Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- forwards pg's overloads unchanged
    override query(...args: any[]): any {
      args[0] = rewrite(args[0]);
      return (pg.Client.prototype.query as (...forwarded: unknown[]) => unknown).apply(this, args);
    }
  } as typeof pg.Client;
}

/**
 * The statement_timeout a new server connection starts with (the role's or
 * database's default), in ms: what guards single statements behind the pooler.
 */
export async function serverStatementTimeoutMs(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ ms: string }>(
    `select setting as ms from pg_settings where name = 'statement_timeout'`,
  );
  return Number(rows[0]?.ms ?? 0);
}
