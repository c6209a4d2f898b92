// A dry run (`Prefer: dry-run`, issue 29): the request runs exactly as it would,
// on one connection in a transaction that is always rolled back, so its answer
// is the real one and nothing it wrote stays: no row, no event, no webhook
// delivery queued (the Event trigger's), no job, no number taken from a counter.
//
// Why at the pool and not in each write path: the kit's statements, Prisma (its
// driver adapter sits on this pool) and the raw SQL of the system services all
// reach the database through the pool's query() and connect(). Inside a dry run
// (an AsyncLocalStorage context) both lead to the dry run's connection instead:
// - pool.query(), which outside is a statement in its own transaction, runs in
//   a savepoint of its own, so a failing statement is undone alone, as it is outside;
// - pool.connect() hands out that connection, on which the caller's BEGIN,
//   COMMIT and ROLLBACK become a savepoint, its release and a rollback to it.
// Every statement takes turns (one connection, one unit at a time), so a
// statement's savepoint is never released by another's.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

interface DryRunConnection {
  client: pg.PoolClient;
  /** The tail of the units queued on the connection. */
  lane: Promise<unknown>;
  savepoints: number;
}

const current = new AsyncLocalStorage<DryRunConnection>();
const realConnect = new WeakMap<pg.Pool, () => Promise<pg.PoolClient>>();

type QueryArgs = [config: unknown, values?: unknown];

/** Runs `unit` on the connection once the units before it have finished. */
function inTurn<R>(run: DryRunConnection, unit: () => Promise<R>): Promise<R> {
  const result = run.lane.then(unit, unit);
  run.lane = result.catch(() => undefined);
  return result;
}

const query = (client: pg.PoolClient, [config, values]: QueryArgs) =>
  (client.query as (config: unknown, values?: unknown) => Promise<pg.QueryResult>)(config, values);

/** A statement outside any transaction: committed alone, or undone alone when it fails. */
function autocommit(run: DryRunConnection, args: QueryArgs): Promise<pg.QueryResult> {
  return inTurn(run, async () => {
    const name = `dry_run_${++run.savepoints}`;
    await run.client.query(`savepoint ${name}`);
    try {
      const result = await query(run.client, args);
      await run.client.query(`release savepoint ${name}`);
      return result;
    } catch (error) {
      await run.client.query(`rollback to savepoint ${name}; release savepoint ${name}`);
      throw error;
    }
  });
}

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const COMMIT = /^\s*(commit|end)\s*;?\s*$/i;
const ROLLBACK = /^\s*(rollback|abort)\s*;?\s*$/i;
/** Only valid as a transaction's first statement: a savepoint keeps the dry run's own level. */
const SET_TRANSACTION = /^\s*set\s+transaction\b/i;

const textOf = (config: unknown) =>
  typeof config === 'string' ? config : ((config as { text?: unknown } | null)?.text ?? '');

/** The dry run's connection as a pooled client whose transaction is a savepoint. */
function transactionClient(run: DryRunConnection): pg.PoolClient {
  const name = `dry_run_${++run.savepoints}`;
  const transactionQuery = (...args: QueryArgs) => {
    const text = String(textOf(args[0]));
    if (BEGIN.test(text)) return inTurn(run, () => run.client.query(`savepoint ${name}`));
    if (COMMIT.test(text)) return inTurn(run, () => run.client.query(`release savepoint ${name}`));
    if (ROLLBACK.test(text)) {
      return inTurn(run, () => run.client.query(`rollback to savepoint ${name}; release savepoint ${name}`));
    }
    if (SET_TRANSACTION.test(text)) return Promise.resolve({ command: 'SET', rowCount: null, rows: [], fields: [] });
    return inTurn(run, () => query(run.client, args));
  };
  return new Proxy(run.client, {
    get(target, property) {
      if (property === 'query') return transactionQuery;
      // The connection goes back to the pool when the dry run ends, not before.
      if (property === 'release') return () => undefined;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Lets `pool` take part in dry runs (once, where it is made). */
export function allowDryRuns(pool: pg.Pool): void {
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const poolConnect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  realConnect.set(pool, () => poolConnect() as Promise<pg.PoolClient>);
  pool.query = ((...args: unknown[]) => {
    const run = current.getStore();
    return run ? autocommit(run, args as QueryArgs) : poolQuery(...args);
  }) as typeof pool.query;
  pool.connect = ((...args: unknown[]) => {
    const run = current.getStore();
    return run ? Promise.resolve(transactionClient(run)) : poolConnect(...args);
  }) as typeof pool.connect;
}

/** Whether the code running now is inside a dry run. */
export const inDryRun = (): boolean => current.getStore() !== undefined;

/**
 * The event types the dry run's transaction inserted, in the order raised: its
 * own rows are the only uncommitted ones it can see (pg_xact_status 'in
 * progress', savepoints included: their ids follow the transaction's own);
 * the time narrows the search to recent events (an event's createdAt is
 * its transaction's now(), or the server's clock then: a webhook's test event). Across an xid epoch's end (every 2^32
 * transactions) the events of that one dry run may go unnamed.
 */
const RAISED = `
  with me as (select pg_current_xact_id()::text::bigint as top)
  select e.type from "Event" e, me
  where e."organizationId" = $1 and e."createdAt" >= now() - interval '5 minutes'
    and case when e.xmin::text::bigint >= (me.top & 4294967295)
             then pg_xact_status(((me.top >> 32 << 32) | e.xmin::text::bigint)::text::xid8) = 'in progress'
             else false end
  order by e.id`;

/** The types of the events raised so far in the current dry run (none outside one). */
export async function raisedInDryRun(organizationId: string): Promise<string[]> {
  const run = current.getStore();
  if (!run) return [];
  const { rows } = await inTurn(run, () => run.client.query<{ type: string }>(RAISED, [organizationId]));
  return rows.map((row) => row.type);
}

export interface DryRunAnswer<R> {
  value: R;
  /** The types of the events the work raised, in order. */
  raised: string[];
}

/**
 * Runs `work` as a dry run on `pool` (made with allowDryRuns) for `organizationId`:
 * its answer, or its error, is the real one; everything it wrote is rolled back.
 */
export async function dryRun<R>(
  pool: pg.Pool,
  organizationId: string,
  work: () => Promise<R>,
): Promise<DryRunAnswer<R>> {
  const connect = realConnect.get(pool);
  if (!connect) throw new Error('dryRun: the pool was not made with allowDryRuns');
  if (current.getStore()) throw new Error('dryRun: already in a dry run');
  const client = await connect();
  const ignore = () => {};
  client.on('error', ignore);
  let healthy = true;
  try {
    await client.query('begin');
    const run: DryRunConnection = { client, lane: Promise.resolve(), savepoints: 0 };
    const value = await current.run(run, work);
    const raised = await current.run(run, () => raisedInDryRun(organizationId));
    return { value, raised };
  } finally {
    await client.query('rollback').catch(() => (healthy = false));
    client.off('error', ignore);
    client.release(healthy ? undefined : true);
  }
}
