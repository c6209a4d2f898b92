// Shutdown stops the embedded PostgreSQL right after closing the pools: a session
// still open then is terminated, and its client logs that as a connection error.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { withDatabaseName } from '../src/db/database-url.js';
import { trackPoolClosing } from '../src/db/pool-closing.js';

const url = () => withDatabaseName(inject('postgresServerUrl'), 'postgres');

/** Opens `count` connections at once and returns their server process ids. */
async function openSessions(pool: pg.Pool, count: number): Promise<number[]> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  const pids = await Promise.all(
    clients.map(async (c) => (await c.query('select pg_backend_pid() as pid')).rows[0].pid),
  );
  for (const client of clients) client.release();
  return pids;
}

describe('closing a pool', () => {
  let observer: pg.Client;
  beforeAll(async () => {
    observer = new pg.Client({ connectionString: url() });
    await observer.connect();
  });
  afterAll(() => observer.end());

  const stillOpen = async (pids: number[]) =>
    Number((await observer.query('select count(*) from pg_stat_activity where pid = any($1)', [pids])).rows[0].count);

  it('resolves only once every one of its sessions has left the server', async () => {
    for (let round = 0; round < 20; round++) {
      const pool = new pg.Pool({ connectionString: url(), max: 4 });
      const closing = trackPoolClosing(pool);
      const pids = await openSessions(pool, 4);
      await closing.end();
      expect(await stillOpen(pids)).toBe(0);
    }
  });

  it('waits for the last session after someone else ended the pool, and at once when none was opened', async () => {
    const pool = new pg.Pool({ connectionString: url(), max: 3 });
    const closing = trackPoolClosing(pool);
    const pids = await openSessions(pool, 3);
    await pool.end();
    await closing.closed();
    expect(await stillOpen(pids)).toBe(0);

    const unused = trackPoolClosing(new pg.Pool({ connectionString: url() }));
    await unused.end();
  });
});
