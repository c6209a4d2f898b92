// The worker's connections report "the database is away" as 57P03, which
// graphile-worker retries (its job completion, not awaited, would otherwise reject
// unhandled and end the process when PostgreSQL restarts or fails over), and
// leave every other error as it was; once the worker is stopping, every error
// stays as it was, so its stop gives up on a database that is gone.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { withDatabaseName } from '../src/db/database-url.js';
import { workerClient } from '../src/jobs/worker-connections.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

let proxy: TcpProxy | undefined;
let pool: pg.Pool | undefined;
afterAll(async () => {
  await pool?.end().catch(() => {});
  await proxy?.stop();
});

describe("the worker's connections", () => {
  it('turn a lost connection and a refused one into 57P03, and keep a SQL error as it is', async () => {
    const server = new URL(withDatabaseName(inject('postgresServerUrl'), 'postgres'));
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
    let stopping = false;
    const Client = workerClient(() => stopping);
    pool = new pg.Pool({ connectionString: proxy.rewrite(server.toString()), max: 1, Client });
    pool.on('error', () => {});

    const sqlError = await pool.query('select 1/0').catch((e: unknown) => e);
    expect((sqlError as { code?: string }).code).toBe('22012');

    const client = await pool.connect();
    // A checked-out client reports its lost connection as an event too (the pool listens only while it is idle).
    client.on('error', () => {});
    const running = client.query('select pg_sleep(5)').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await proxy.stop();
    const lost = (await running) as Error & { code?: string };
    expect(lost.code).toBe('57P03');
    expect((lost.cause as Error).message).toMatch(/Connection terminated/);
    client.release(lost);

    const refused = (await pool.query('select 1').catch((e: unknown) => e)) as Error & { code?: string };
    expect(refused.code).toBe('57P03');
    expect((refused.cause as { code?: string }).code).toBe('ECONNREFUSED');

    stopping = true;
    const atStop = (await pool.query('select 1').catch((e: unknown) => e)) as Error & { code?: string };
    expect(atStop.code).toBe('ECONNREFUSED');
  });
});
