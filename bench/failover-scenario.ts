// Losing the PostgreSQL primary, losing nothing: what `npm run bench:failover`
// (bench/failover.ts) and test/failover.test.ts run. A pg_auto_failover monitor and
// two nodes with synchronous replication on loopback (Debian's
// postgresql-15-auto-failover and pg-auto-failover-cli); the service (`npm start`'s
// command: API and worker) on the formation's multi-host URL; a webhook receiver
// subscribed to contact.created; creates at a steady rate through a planned
// switchover and then `kill -9` of the primary's postmaster. Measured per failover:
// requests refused and for how long. Checked afterwards: every create answered 201
// exists, has exactly one event, and every event was delivered.
//
// PostgreSQL refuses to run as root: as root, pg_autoctl runs as the `postgres`
// user (runuser) in a temporary directory it owns.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { operatorPrincipal } from '../src/auth/principal.js';
import { newPool } from '../src/db/multi-host.js';
import { connectDatabase } from '../src/db/prisma.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { createServices } from '../src/graphql/modules.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PACKAGES = 'postgresql-15-auto-failover and pg-auto-failover-cli';

export interface FailoverOptions {
  /** Creates per second. */
  rate: number;
  /** Seconds of steady load before each failover, and after the last. */
  settleS: number;
  log?: (line: string) => void;
}

export interface FailoverFigures {
  kind: 'switchover' | 'kill -9';
  /** The primary before and after (host:port). */
  from: string;
  to: string;
  /** Requests sent from this failover's start to the next one's that did not answer 201. */
  refused: number;
  /** Of those: answered 503 with Retry-After; and by the error's message. */
  refused503: number;
  reasons503: Record<string, number>;
  /** Seconds after the failover's start of the first and last refused request. */
  refusedBetweenS: [number, number] | undefined;
  /** Any other answer or failure (500s, resets, hangs past 15 s), by status or error. */
  otherFailures: Record<string, number>;
  /** The longest span without a successful create: from the last 201 sent before to the answer of the first after. */
  unavailableMs: number;
  /** The slowest answer in that span. */
  slowestMs: number;
}

export interface FailoverResult {
  postgres: string;
  sent: number;
  created: number;
  failovers: FailoverFigures[];
  /** Creates answered 201 whose contact is missing afterwards. */
  lostCreates: number;
  /** Creates answered 201 without exactly one contact.created event. */
  eventsMissing: number;
  eventsDuplicated: number;
  /** Contacts committed although their request failed (the answer was lost): allowed. */
  committedWithoutAnswer: number;
  events: number;
  undelivered: number;
  duplicateDeliveries: number;
  /** Duplicates whose first delivery was not near a failover: should be 0. */
  duplicatesAwayFromFailovers: number;
  /** The service process exited during the run (a crash). */
  serviceExited: string | undefined;
}

/** Where pg_auto_failover's pieces are, or why it cannot run here. */
export function findPgAutoFailover(): { autoctl: string; bin: string } | { missing: string } {
  const autoctl = ['/usr/bin/pg_autoctl', '/usr/lib/postgresql/15/bin/pg_autoctl'].find(existsSync);
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
  const version = versions.find((v) => existsSync(`/usr/share/postgresql/${v}/extension/pgautofailover.control`));
  if (!autoctl || !version) {
    return {
      missing:
        `pg_auto_failover is not installed (${!autoctl ? 'no pg_autoctl' : 'no pgautofailover extension'}): ` +
        `apt-get install ${PACKAGES} (the version for the PostgreSQL in use)`,
    };
  }
  return { autoctl, bin: `/usr/lib/postgresql/${version}/bin` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function within<T>(what: string, ms: number, poll: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await poll().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(250);
  }
}

interface NodeState {
  nodename: string;
  nodehost: string;
  nodeport: number;
  current_group_state: string;
  assigned_group_state: string;
}

/** The monitor and two nodes, as processes of this one; stop() ends them and removes their files. */
class Formation {
  private readonly children: ChildProcess[] = [];
  readonly ports: { monitor: number; node1: number; node2: number };

  private constructor(
    private readonly dir: string,
    private readonly tools: { autoctl: string; bin: string },
    ports: { monitor: number; node1: number; node2: number },
  ) {
    this.ports = ports;
  }

  static async create(tools: { autoctl: string; bin: string }): Promise<Formation> {
    const dir = await mkdtemp(path.join(tmpdir(), 'bp-failover-'));
    if (process.getuid?.() === 0) await chown(dir, ...postgresIds());
    const ports = { monitor: await freePort(), node1: await freePort(), node2: await freePort() };
    return new Formation(dir, tools, ports);
  }

  get monitorUrl(): string {
    return `postgres://autoctl_node@127.0.0.1:${this.ports.monitor}/pg_auto_failover?sslmode=disable`;
  }

  pgdata(name: 'monitor' | 'node1' | 'node2'): string {
    return path.join(this.dir, name);
  }

  /** pg_autoctl with its configuration under the temporary directory; as `postgres` when this is root. */
  private command(args: string[]): [string, string[]] {
    const env = [
      `PATH=${this.tools.bin}:/usr/bin:/bin`,
      `XDG_CONFIG_HOME=${this.dir}/config`,
      `XDG_DATA_HOME=${this.dir}/share`,
      `XDG_RUNTIME_DIR=${this.dir}/run`,
      `HOME=${this.dir}`,
    ];
    const line = ['env', ...env, this.tools.autoctl, ...args];
    return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...line]] : [line[0]!, line.slice(1)];
  }

  /** A long-running pg_autoctl (create … --run), its output in a log file. */
  private start(name: string, args: string[]): void {
    const [command, argv] = this.command(args);
    const log = openSync(path.join(this.dir, `${name}.log`), 'a');
    const child = spawn(command, argv, { cwd: this.dir, stdio: ['ignore', log, log], detached: true });
    this.children.push(child);
  }

  /** A pg_autoctl command to completion; its output, or an error with it. */
  async run(args: string[]): Promise<string> {
    const [command, argv] = this.command(args);
    const child = spawn(command, argv, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`pg_autoctl ${args.join(' ')} exited with ${code}:\n${output.slice(-2000)}`);
    return output;
  }

  async states(): Promise<NodeState[]> {
    const client = new pg.Client({ connectionString: this.monitorUrl, connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    await client.connect();
    try {
      const { rows } = await client.query<NodeState>(
        `select nodename, nodehost, nodeport, current_group_state::text, assigned_group_state::text
           from pgautofailover.current_state('default') order by nodename`,
      );
      return rows;
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** One primary and one secondary, each where the monitor wants it; returns the primary. */
  stable(): Promise<NodeState> {
    return within('pg_auto_failover: a primary and a secondary', 180_000, async () => {
      const nodes = await this.states();
      const settled = nodes.length === 2 && nodes.every((n) => n.current_group_state === n.assigned_group_state);
      const primary = nodes.find((n) => n.current_group_state === 'primary');
      return settled && primary && nodes.some((n) => n.current_group_state === 'secondary') ? primary : undefined;
    });
  }

  async up(log: (line: string) => void): Promise<void> {
    const common = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl'];
    this.start('monitor', [
      'create',
      'monitor',
      '--pgdata',
      this.pgdata('monitor'),
      '--pgport',
      String(this.ports.monitor),
      ...common,
      '--run',
    ]);
    await within('the pg_auto_failover monitor', 120_000, async () => ((await this.states()) ? true : undefined));
    const node = (name: 'node1' | 'node2') =>
      this.start(name, [
        'create',
        'postgres',
        '--pgdata',
        this.pgdata(name),
        '--pgport',
        String(this.ports[name]),
        '--name',
        name,
        '--dbname',
        'platform',
        '--monitor',
        this.monitorUrl,
        ...common,
        '--run',
      ]);
    // The first node registered becomes the primary; the second is cloned from it.
    node('node1');
    await within('node1 as the primary', 120_000, async () =>
      (await this.states()).some((n) => n.nodename === 'node1' && n.current_group_state === 'single')
        ? true
        : undefined,
    );
    log('node1 is the primary; cloning node2');
    const cloning = Date.now();
    node('node2');
    // pg_basebackup waits for a spread checkpoint (minutes); an explicit CHECKPOINT on the primary ends the wait.
    let cloned = false;
    const hurry = (async () => {
      while (!cloned) {
        await sleep(2000);
        await this.sql('node1', 'checkpoint').catch(() => {});
      }
    })();
    await this.stable().finally(() => (cloned = true));
    await hurry;
    log(`node2 is its synchronous standby (${((Date.now() - cloning) / 1000).toFixed(1)} s)`);
  }

  /** The formation's URL as `pg_autoctl show uri` prints it, for the user `postgres`, without TLS (--no-ssl). */
  async uri(): Promise<string> {
    const output = await this.run(['show', 'uri', '--pgdata', this.pgdata('monitor'), '--formation', 'default']);
    const uri = /postgres(?:ql)?:\/\/\S+/.exec(output)?.[0];
    if (!uri) throw new Error(`pg_autoctl show uri printed no URI:\n${output}`);
    return uri.replace(/^postgres(ql)?:\/\//, 'postgres://postgres@').replace(/sslmode=[a-z-]+/, 'sslmode=disable');
  }

  /** Runs one statement on a node, as the superuser `postgres`. */
  async sql(name: string, statement: string): Promise<void> {
    const client = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${this.ports[name as 'node1']}/platform?sslmode=disable`,
      connectionTimeoutMillis: 2000,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query(statement);
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Whether a node's PostgreSQL answers a query. */
  accepts(name: string): Promise<boolean> {
    return this.sql(name, 'select 1').then(
      () => true,
      () => false,
    );
  }

  /** The postmaster's process id of a node (its pgdata's postmaster.pid). */
  postmasterPid(name: string): number {
    return Number(readFileSync(path.join(this.pgdata(name as 'node1'), 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  logTail(name: string): string {
    try {
      return readFileSync(path.join(this.dir, `${name}.log`), 'utf8')
        .split('\n')
        .slice(-15)
        .join('\n');
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    // pg_autoctl stops its Postgres on SIGTERM; the nodes first, then the monitor.
    for (const child of [...this.children].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        continue;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
    }
    // A postmaster its keeper did not stop (killed keeper): by its own pid file.
    for (const name of ['node1', 'node2', 'monitor']) {
      try {
        process.kill(this.postmasterPid(name), 'SIGQUIT');
      } catch {
        // not running
      }
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}

function postgresIds(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}

interface Sent {
  sentAt: number;
  doneAt: number;
  status: number | string;
  /** A 503's error message. */
  reason?: string;
  id?: string;
}

interface Arrival {
  eventId: string;
  at: number;
}

async function startReceiver(): Promise<{ url: string; arrivals: Arrival[]; close(): Promise<void> }> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ eventId: String(req.headers['webhook-id']), at: performance.now() });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `npm start`'s command (API and worker) on `databaseUrl`; its output goes to `logFile`. */
async function startService(databaseUrl: string, logFile: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const { DATABASE_DIRECT_URL: _direct, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      // Development: webhooks may go to a receiver on loopback.
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000000',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    },
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  await within('the service', 120_000, async () => {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    return (await fetch(`${url}/readyz`)).ok ? true : undefined;
  });
  return { url, child };
}

async function createOrganization(url: string): Promise<{ id: string; key: string }> {
  const clients = connectDatabase(url, 2);
  try {
    const services = createServices(clients);
    const { organization } = await services.organizations.create({
      name: 'Failover',
      adminEmail: 'admin@failover.example',
      adminPassword: 'bench-password',
    });
    const { key } = await services.apiKeys.create(operatorPrincipal(organization.id), {
      name: 'bench',
      scopes: ['admin'],
    });
    return { id: organization.id, key };
  } finally {
    await clients.disconnect();
  }
}

function figuresOf(
  kind: FailoverFigures['kind'],
  span: Sent[],
  from: string,
  to: string,
  startedAt: number,
): FailoverFigures {
  const failed = span.filter((s) => s.status !== 201);
  const otherFailures: Record<string, number> = {};
  const reasons503: Record<string, number> = {};
  for (const s of failed) {
    if (s.status !== 503) otherFailures[String(s.status)] = (otherFailures[String(s.status)] ?? 0) + 1;
    else reasons503[s.reason ?? '?'] = (reasons503[s.reason ?? '?'] ?? 0) + 1;
  }
  // The longest time in which no create that was sent succeeded: from the last 201 sent before
  // to the answer of the first 201 sent after. Isolated refusals later (a pool wait past its
  // timeout on a loaded machine) are counted in `refused`, not stretched into the window.
  let unavailableMs = 0;
  const firstFailure = failed[0]?.sentAt;
  if (firstFailure !== undefined) {
    let lastSuccessSent = startedAt;
    for (const s of [...span].sort((a, b) => a.sentAt - b.sentAt)) {
      if (s.status !== 201) continue;
      unavailableMs = Math.max(unavailableMs, s.doneAt - lastSuccessSent);
      lastSuccessSent = s.sentAt;
    }
  }
  const offsets = failed.map((s) => (s.sentAt - startedAt) / 1000);
  return {
    kind,
    from,
    to,
    refused: failed.length,
    refused503: failed.filter((s) => s.status === 503).length,
    reasons503,
    refusedBetweenS: offsets.length ? [Math.min(...offsets), Math.max(...offsets)] : undefined,
    otherFailures,
    unavailableMs,
    slowestMs: Math.max(0, ...span.map((s) => s.doneAt - s.sentAt)),
  };
}

export async function runFailoverScenario({ rate, settleS, log = () => {} }: FailoverOptions): Promise<FailoverResult> {
  const tools = findPgAutoFailover();
  if ('missing' in tools) throw new Error(tools.missing);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const formation = await Formation.create(tools);
    cleanups.push(() => formation.stop());
    const setupStarted = Date.now();
    try {
      await formation.up(log);
    } catch (error) {
      for (const name of ['monitor', 'node1', 'node2']) log(`--- ${name}.log\n${formation.logTail(name)}`);
      throw error;
    }
    const databaseUrl = await formation.uri();
    log(`formation up in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s: ${databaseUrl}`);
    await applyMigrations(databaseUrl);
    const organization = await createOrganization(databaseUrl);
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const serviceLog = path.join(tmpdir(), `bp-failover-service-${process.pid}.log`);
    const service = await startService(databaseUrl, serviceLog);
    let serviceExited: string | undefined;
    service.child.on('exit', (code, signal) => (serviceExited ??= `code ${code}, signal ${signal}`));
    cleanups.push(async () => {
      if (service.child.exitCode !== null || service.child.signalCode !== null) return;
      const exited = once(service.child, 'exit');
      service.child.kill('SIGTERM');
      await exited;
    });
    const authorization = `Bearer ${organization.key}`;
    const subscribed = await fetch(`${service.url}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['contact.created'] }),
    });
    if (subscribed.status !== 201) throw new Error(`subscription: ${subscribed.status} ${await subscribed.text()}`);

    // Creates at a steady rate until told to stop; every answer recorded.
    const sent: Sent[] = [];
    const inFlight = new Set<Promise<void>>();
    const create = async (n: number) => {
      const record: Sent = { sentAt: performance.now(), doneAt: 0, status: 0 };
      sent.push(record);
      try {
        const response = await fetch(`${service.url}/v1/crm/contacts`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ email: `failover${n}@example.test` }),
          signal: AbortSignal.timeout(15_000),
        });
        const body = (await response.json()) as { id?: string; error?: { message?: string } };
        record.reason = body.error?.message;
        record.status =
          response.status === 503 && !response.headers.get('retry-after') ? '503 without Retry-After' : response.status;
        if (response.status === 201) record.id = body.id;
      } catch (error) {
        const err = error as { name?: string; cause?: { code?: string } };
        record.status = err.name === 'TimeoutError' ? 'hung 15 s' : (err.cause?.code ?? String(error));
      }
      record.doneAt = performance.now();
    };
    let loading = true;
    const load = (async () => {
      const started = performance.now();
      let count = 0;
      while (loading) {
        for (const due = Math.floor(((performance.now() - started) * rate) / 1000); count < due; count++) {
          const request = create(count);
          inFlight.add(request);
          void request.finally(() => inFlight.delete(request));
        }
        await sleep(10);
      }
    })();

    const marks: { kind: FailoverFigures['kind']; at: number; from: string; to?: string; end?: number }[] = [];
    const hostOf = (n: NodeState) => `${n.nodename} ${n.nodehost}:${n.nodeport}`;
    await sleep(settleS * 1000);

    // A planned switchover: the monitor demotes the primary and promotes the standby.
    let primary = await formation.stable();
    log(`switchover from ${hostOf(primary)}`);
    marks.push({ kind: 'switchover', at: performance.now(), from: hostOf(primary) });
    await formation.run(['perform', 'switchover', '--pgdata', formation.pgdata('monitor'), '--formation', 'default']);
    primary = await formation.stable();
    marks.at(-1)!.to = hostOf(primary);
    log(`switchover done: primary ${hostOf(primary)}`);
    await sleep(settleS * 1000);

    // The primary's postmaster killed outright.
    primary = await formation.stable();
    const pid = formation.postmasterPid(primary.nodename);
    log(`kill -9 of ${hostOf(primary)}'s postmaster (pid ${pid})`);
    marks.push({ kind: 'kill -9', at: performance.now(), from: hostOf(primary) });
    process.kill(pid, 'SIGKILL');
    // Recovered when the other node was promoted, or the keeper started the killed one's PostgreSQL again.
    const killed = primary.nodename;
    await within('a primary after the kill', 180_000, async () => {
      const nodes = await formation.states();
      if (nodes.some((n) => n.nodename !== killed && n.current_group_state === 'primary')) return true;
      return formation.postmasterPid(killed) !== pid && (await formation.accepts(killed)) ? true : undefined;
    });
    primary = await formation.stable();
    marks.at(-1)!.to = hostOf(primary);
    log(`after the kill: primary ${hostOf(primary)}`);
    await sleep(settleS * 1000);
    loading = false;
    await load;
    await Promise.all(inFlight);
    const end = performance.now();

    const failovers = marks.map((mark, i) =>
      figuresOf(
        mark.kind,
        sent.filter((s) => s.sentAt >= mark.at && s.sentAt < (marks[i + 1]?.at ?? end)),
        mark.from,
        mark.to ?? '?',
        mark.at,
      ),
    );
    // Failures before the first failover count too (there should be none).
    const before = sent.filter((s) => s.sentAt < marks[0]!.at && s.status !== 201);
    if (before.length) {
      const why: Record<string, number> = {};
      for (const s of before)
        why[`${s.status} ${s.reason ?? ''}`.trim()] = (why[`${s.status} ${s.reason ?? ''}`.trim()] ?? 0) + 1;
      log(
        `${before.length} creates failed before the first failover (a machine too busy for the rate?): ${JSON.stringify(why)}`,
      );
    }

    // What the database holds, read from the primary.
    const acknowledged = sent.filter((s) => s.status === 201 && s.id).map((s) => s.id!);
    const pool = newPool(databaseUrl, { max: 1 });
    pool.on('error', () => {});
    let checks;
    try {
      // A connection to the primary (the process's remembered one may be a standby by now: the first attempt says so).
      await within('a connection to the primary', 60_000, async () => (await pool.query('select 1'), true));
      const contacts = await pool.query<{ id: string }>('select id from "Contact" where "organizationId" = $1', [
        organization.id,
      ]);
      const events = await pool.query<{ id: string; contact: string }>(
        `select id, data->'object'->>'id' as contact from "Event"
          where "organizationId" = $1 and type = 'contact.created'`,
        [organization.id],
      );
      checks = { contacts: new Set(contacts.rows.map((r) => r.id)), events: events.rows };
    } finally {
      await pool.end();
    }
    const eventsByContact = new Map<string, number>();
    for (const { contact } of checks.events) eventsByContact.set(contact, (eventsByContact.get(contact) ?? 0) + 1);
    const acknowledgedSet = new Set(acknowledged);

    // Every event delivered: wait for the stragglers (retries back off), then for late duplicates.
    const delivered = () => new Set(receiver.arrivals.map((a) => a.eventId));
    await within('every event delivered', 120_000, async () =>
      checks.events.every((e) => delivered().has(e.id)) ? true : undefined,
    ).catch(() => undefined);
    await sleep(2000);
    const got = delivered();
    const firstAt = new Map<string, number>();
    let duplicatesAwayFromFailovers = 0;
    const nearFailover = (at: number) => marks.some((m) => at >= m.at - 2000 && at <= m.at + 60_000);
    for (const { eventId, at } of receiver.arrivals) {
      const first = firstAt.get(eventId);
      if (first === undefined) firstAt.set(eventId, at);
      else if (!nearFailover(first)) duplicatesAwayFromFailovers += 1;
    }
    if (serviceExited) log(`the service exited: ${serviceExited}; its log: ${serviceLog}`);
    return {
      postgres: `pg_auto_failover: monitor 127.0.0.1:${formation.ports.monitor}, node1 :${formation.ports.node1}, node2 :${formation.ports.node2}`,
      sent: sent.length,
      created: acknowledged.length,
      failovers,
      lostCreates: acknowledged.filter((id) => !checks.contacts.has(id)).length,
      eventsMissing: acknowledged.filter((id) => !eventsByContact.has(id)).length,
      eventsDuplicated: [...eventsByContact.values()].filter((n) => n > 1).length,
      committedWithoutAnswer: [...checks.contacts].filter((id) => !acknowledgedSet.has(id)).length,
      events: checks.events.length,
      undelivered: checks.events.filter((e) => !got.has(e.id)).length,
      duplicateDeliveries: receiver.arrivals.length - got.size,
      duplicatesAwayFromFailovers,
      serviceExited,
    };
  } finally {
    for (const task of cleanups.reverse()) await task().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
}
