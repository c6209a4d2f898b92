// A libpq multi-host DATABASE_URL (a failover group, as `pg_autoctl show uri`
// prints it) against the real local PostgreSQL: the hosts are parsed as libpq
// reads them, a dead host listed first is passed over for the one that answers
// as a primary, a host that goes away mid-use is left for the next, and no
// primary at all is a quick 503 with Retry-After, never a 500 or a hang.
// test/failover.test.ts does the same with a real standby and pg_auto_failover.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { withDatabaseName } from '../src/db/database-url.js';
import { connectionConfig, newPool, NoPrimaryError, parseMultiHostUrl } from '../src/db/multi-host.js';
import { connectDatabase } from '../src/db/prisma.js';
import { databaseUnavailable } from '../src/db/unavailable.js';
import { freePort } from './support/free-port.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const serverUrl = () => withDatabaseName(inject('postgresServerUrl'), 'postgres');
const server = () => new URL(serverUrl());

/** `serverUrl` with its host list replaced by `hosts` and libpq's read-write attribute. */
function groupUrl(hosts: string[]): string {
  const url = server();
  const credentials = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  return `postgres://${credentials}${hosts.join(',')}${url.pathname}?target_session_attrs=read-write`;
}

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
});
function pool(url: string): pg.Pool {
  const created = newPool(url, { max: 2, connectionTimeoutMillis: 3000 });
  created.on('error', () => {});
  pools.push(created);
  return created;
}

describe('parsing a multi-host URL', () => {
  it('reads every host and port, and builds each host URL without target_session_attrs', () => {
    const group = parseMultiHostUrl(
      'postgres://app:s%40cret@node1:5432,node2,[::1]:6000/erp?target_session_attrs=read-write&sslmode=disable',
    );
    expect(group?.hosts).toEqual([
      { host: 'node1', port: 5432 },
      { host: 'node2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(group?.urlFor(group.hosts[2]!)).toBe('postgres://app:s%40cret@[::1]:6000/erp?sslmode=disable');
    expect(group?.describe()).toBe('node1:5432,node2:5432,[::1]:6000');
  });

  it('leaves a single-host URL to node-postgres untouched (no work added per query)', () => {
    const url = 'postgresql://app@db.example:5432/erp';
    expect(parseMultiHostUrl(url)).toBeUndefined();
    expect(connectionConfig(url)).toEqual({ connectionString: url, Client: pg.Client });
  });

  it('refuses a target_session_attrs that would pick a standby', () => {
    expect(() => parseMultiHostUrl('postgres://a,b/erp?target_session_attrs=standby')).toThrow(/use read-write/);
  });
});

describe('finding the primary', () => {
  it('passes over a dead host listed first and connects to the one that is a primary', async () => {
    const dead = await freePort();
    const { hostname, port } = server();
    const group = pool(groupUrl([`127.0.0.1:${dead}`, `${hostname}:${port}`]));
    const { rows } = await group.query<{ port: number }>('select inet_server_port() as port');
    expect(rows[0]?.port).toBe(Number(port));
  });

  it('serves Prisma and the raw pool of the API through the same group', async () => {
    const dead = await freePort();
    const { hostname, port } = server();
    const clients = connectDatabase(groupUrl([`127.0.0.1:${dead}`, `${hostname}:${port}`]), 2);
    try {
      expect(await clients.prisma.$queryRaw<{ one: number }[]>`select 1 as one`).toEqual([{ one: 1 }]);
      expect((await clients.pool.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    } finally {
      await clients.disconnect();
    }
  });

  it('with no host answering, fails at once with a 503 and Retry-After', async () => {
    const group = pool(groupUrl([`127.0.0.1:${await freePort()}`, `127.0.0.1:${await freePort()}`]));
    const started = Date.now();
    const error = await group.query('select 1').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(error).toBeInstanceOf(NoPrimaryError);
    expect((error as Error).message).toMatch(/no primary among 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    const unavailable = databaseUnavailable(error);
    expect(unavailable?.code).toBe('SERVICE_UNAVAILABLE');
    expect(unavailable?.retryAfter).toBeGreaterThan(0);
  });

  describe('when the host in use goes away', () => {
    let first: TcpProxy;
    let second: TcpProxy;
    afterAll(async () => {
      await first?.stop();
      await second?.stop();
    });

    it('moves to the next host: at most the statements in flight fail, as a 503', async () => {
      const { hostname, port } = server();
      first = await startTcpProxy({ host: hostname, port: Number(port) });
      second = await startTcpProxy({ host: hostname, port: Number(port) });
      const group = pool(groupUrl([`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`]));
      // The first host refuses once stopped: a statement that succeeds went through the second.
      const one = async () => (await group.query<{ one: number }>('select 1 as one')).rows[0]?.one;
      expect(await one()).toBe(1);
      await first.stop();
      // The pooled session to the first host is cut: that one statement may fail, as a passing trouble.
      const outcome = await one().catch((error: unknown) => error);
      if (outcome instanceof Error) expect(databaseUnavailable(outcome)?.code).toBe('SERVICE_UNAVAILABLE');
      // From then on, every statement runs through the second host.
      for (let i = 0; i < 5; i++) expect(await one()).toBe(1);
    });
  });
});
