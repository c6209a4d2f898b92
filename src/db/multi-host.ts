// libpq's multi-host connection strings for node-postgres, which has none: a
// DATABASE_URL such as `pg_autoctl show uri` prints,
//   postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write
// lists every node of a failover group; the service connects to the one that is
// the primary (not in recovery, transaction_read_only off), remembers it, and
// looks again after a connection to it fails or it answers as no primary would
// (shutdown, read-only). Every pool and client of the service is built through
// connectionConfig()/newClient() below. A single-host URL gets node-postgres'
// own Client untouched: no work is added to a query or a connection.
import pg from 'pg';

export interface HostPort {
  host: string;
  port: number;
}

export interface MultiHostTarget {
  hosts: HostPort[];
  /** The URL with the one host given: scheme, credentials, database and parameters kept. */
  urlFor(host: HostPort): string;
  /** For messages: the hosts without credentials. */
  describe(): string;
}

/** Raised when no listed host is a primary that accepts connections; a passing trouble (503). */
export class NoPrimaryError extends Error {
  /** cannot_connect_now: what a client sees while a primary is starting, and graphile-worker retries it. */
  readonly code = '57P03';
  constructor(
    where: string,
    readonly problems: string[],
  ) {
    super(`no primary among ${where}: ${problems.join('; ')}`);
    this.name = 'NoPrimaryError';
  }
}

// libpq's accepted values; the service always needs the writable node.
const SESSION_ATTRS = new Set(['any', 'read-write', 'primary']);

function parseHost(text: string, url: string): HostPort {
  const match = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(text);
  if (!match || !match[1]) throw new Error(`invalid host "${text}" in the database URL ${redact(url)}`);
  const host = match[1].startsWith('[') ? match[1].slice(1, -1) : match[1];
  return { host: decodeURIComponent(host), port: match[2] ? Number(match[2]) : 5432 };
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}

/**
 * The hosts of a libpq multi-host URL; undefined for a URL with one host (or a
 * socket directory), which node-postgres takes as it is.
 */
export function parseMultiHostUrl(url: string): MultiHostTarget | undefined {
  const match = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/.exec(url);
  if (!match) return undefined;
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const hostList = authority.slice(at + 1);
  if (!hostList.includes(',')) return undefined;
  const hosts = hostList.split(',').map((text) => parseHost(text, url));
  const queryAt = rest.indexOf('?');
  const path = queryAt >= 0 ? rest.slice(0, queryAt) : rest;
  const params = new URLSearchParams(queryAt >= 0 ? rest.slice(queryAt + 1) : '');
  const attrs = params.get('target_session_attrs');
  if (attrs !== null && !SESSION_ATTRS.has(attrs)) {
    throw new Error(
      `target_session_attrs=${attrs} in the database URL: the service writes, so it connects to the primary (use read-write)`,
    );
  }
  // node-postgres does not know it; the choice of host is made here.
  params.delete('target_session_attrs');
  const query = params.size ? `?${params.toString()}` : '';
  const hostText = ({ host, port }: HostPort) => `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    hosts,
    urlFor: (host) => `${scheme}${userinfo}${hostText(host)}${path}${query}`,
    describe: () => hosts.map(hostText).join(','),
  };
}

/** Whether a connection answers as a primary: read-write, not a standby. */
export async function isPrimary(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ standby: boolean; readonly: string }>(
    `select pg_is_in_recovery() as standby, current_setting('transaction_read_only') as readonly`,
  );
  return rows[0]?.standby === false && rows[0]?.readonly === 'off';
}

const PROBE_TIMEOUT_MS = 2_000;

/**
 * Which host is the primary now. Every pool and client of one URL in a process
 * shares one locator, so one failed connection sends them all looking.
 */
export class PrimaryLocator {
  private known?: HostPort;
  private finding?: Promise<HostPort>;

  constructor(readonly target: MultiHostTarget) {}

  /** The primary: the remembered one, else the first listed host that is one (all probed at once). */
  primary(): Promise<HostPort> {
    if (this.known) return Promise.resolve(this.known);
    this.finding ??= this.find().finally(() => (this.finding = undefined));
    return this.finding;
  }

  /** `host` failed or is no longer the primary: the next connection looks again. */
  forget(host: HostPort): void {
    if (this.known === host) this.known = undefined;
  }

  private async find(): Promise<HostPort> {
    const answers = await Promise.all(this.target.hosts.map((host) => this.probe(host)));
    const index = answers.findIndex((answer) => answer === true);
    if (index < 0) {
      throw new NoPrimaryError(
        this.target.describe(),
        answers.map(
          (answer, i) => `${this.target.describe().split(',')[i]} ${answer === false ? 'is a standby' : answer}`,
        ),
      );
    }
    this.known = this.target.hosts[index];
    return this.known!;
  }

  /** true: a primary; false: a standby (or read-only); a string: why it could not be asked. */
  private async probe(host: HostPort): Promise<boolean | string> {
    const client = new pg.Client({
      connectionString: this.target.urlFor(host),
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      return await isPrimary(client);
    } catch (error) {
      const err = error as { code?: string; message?: string };
      return err.code ?? err.message ?? String(error);
    } finally {
      await client.end().catch(() => {});
    }
  }
}

const locators = new Map<string, PrimaryLocator>();

/** The process's one locator for a multi-host URL; undefined for a single host. */
export function locatorFor(url: string): PrimaryLocator | undefined {
  let locator = locators.get(url);
  if (!locator) {
    const target = parseMultiHostUrl(url);
    if (!target) return undefined;
    locator = new PrimaryLocator(target);
    locators.set(url, locator);
  }
  return locator;
}

// A session that receives one of these is on a node that is not (or no longer) a primary.
const NOT_PRIMARY_CODES = new Set(['25006', '57P01', '57P02', '57P03']);

type ClientClass = typeof pg.Client;
interface ClientInternals {
  host: string;
  port: number;
  _ending?: boolean;
  _queryable: boolean;
  connectionParameters: { host: string; port: number };
}

/**
 * A node-postgres Client class that connects to the locator's primary, checks
 * that it is one, and makes the locator look again when the connection fails.
 */
export function multiHostClient(locator: PrimaryLocator, Base: ClientClass = pg.Client): ClientClass {
  class MultiHostClient extends Base {
    private target?: HostPort;

    // node-postgres' connect() (callback and promise forms, and pg-pool's) goes through _connect.
    _connect(callback: (error: Error | null, client?: pg.Client) => void): void {
      locator.primary().then(
        (host) => {
          const self = this as unknown as ClientInternals;
          // Ended (or its socket destroyed by the pool's connection timeout) while the primary was being found.
          if (self._ending || this.connection.stream.destroyed) {
            return callback(new Error('Connection terminated due to connection timeout'));
          }
          this.target = host;
          self.host = self.connectionParameters.host = host.host;
          self.port = self.connectionParameters.port = host.port;
          const connect = (Base.prototype as unknown as { _connect: MultiHostClient['_connect'] })._connect;
          connect.call(this, (error) => {
            if (error) {
              locator.forget(host);
              return callback(error);
            }
            // The remembered primary may have been demoted since it was found. Until the caller has
            // the client (and listens to it), a connection lost meanwhile fails this check, not the process.
            const lostWhileChecking = () => {};
            this.on('error', lostWhileChecking);
            isPrimary(this).then(
              (primary) => {
                if (primary) {
                  this.removeListener('error', lostWhileChecking);
                  return callback(null, this);
                }
                locator.forget(host);
                void this.end().catch(() => {});
                callback(new NoPrimaryError(locator.target.describe(), [`${host.host}:${host.port} is a standby`]));
              },
              (checkError: Error) => {
                locator.forget(host);
                void this.end().catch(() => {});
                callback(checkError);
              },
            );
          });
        },
        (error: Error) => callback(error),
      );
    }

    // The connection broke (the server went away): look again.
    _handleErrorEvent(error: Error): void {
      if (this.target) locator.forget(this.target);
      (Base.prototype as unknown as { _handleErrorEvent(e: Error): void })._handleErrorEvent.call(this, error);
    }

    // A server that is shutting down, or answers read-only, is no primary: look again, and
    // have the pool discard this session when it comes back (pg-pool drops an unqueryable client).
    _handleErrorMessage(message: { code?: string }): void {
      if (message.code && NOT_PRIMARY_CODES.has(message.code) && this.target) {
        locator.forget(this.target);
        if (message.code === '25006') (this as unknown as ClientInternals)._queryable = false;
      }
      (Base.prototype as unknown as { _handleErrorMessage(m: unknown): void })._handleErrorMessage.call(this, message);
    }
  }
  return MultiHostClient as unknown as ClientClass;
}

/**
 * What to give pg.Pool or pg.Client for `url`: the URL and node-postgres' Client
 * (or `Base`) for one host; for several, the first host's URL (node-postgres
 * cannot parse the list) and a Client that finds the primary.
 */
export function connectionConfig(
  url: string,
  Base: ClientClass = pg.Client,
): { connectionString: string; Client: ClientClass } {
  const locator = locatorFor(url);
  if (!locator) return { connectionString: url, Client: Base };
  return { connectionString: locator.target.urlFor(locator.target.hosts[0]!), Client: multiHostClient(locator, Base) };
}

/** A pg.Client for `url`, multi-host or not. */
export function newClient(url: string, config: Omit<pg.ClientConfig, 'connectionString'> = {}): pg.Client {
  const { connectionString, Client } = connectionConfig(url);
  return new Client({ ...config, connectionString });
}

/** A pg.Pool for `url`, multi-host or not; `Base` is the Client class it would use on one host. */
export function newPool(
  url: string,
  config: Omit<pg.PoolConfig, 'connectionString' | 'Client'> & { Client?: ClientClass } = {},
): pg.Pool {
  const { connectionString, Client } = connectionConfig(url, config.Client ?? pg.Client);
  return new pg.Pool({ ...config, connectionString, Client });
}

/**
 * A single-host URL of the primary now: for what opens its own connections once
 * (migrations, the schema engine, start checks). The same URL for one host.
 */
export async function primaryUrl(url: string): Promise<string> {
  const locator = locatorFor(url);
  if (!locator) return url;
  return locator.target.urlFor(await locator.primary());
}
