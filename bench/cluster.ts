// npm run bench:cluster: several processes on one database, as an operator runs
// them. N API processes (`npm start`'s command, WORKER=off) and M `npm run worker`
// processes share one PostgreSQL and one WEBHOOK_SECRET_KEY; a receiver here is
// subscribed to contact.created. Creates go to the APIs in turn at a steady rate;
// a third of the way in one API is killed with SIGKILL and started again, at two
// thirds one worker. Printed: contacts created, contact.created events committed,
// unique deliveries, duplicates, missing events, delivery latency (from the 201,
// which follows the commit, to the arrival) and requests refused while an API was
// down.
//
//   DATABASE_URL               a PostgreSQL server to use (database bp_bench_cluster is
//                              created and dropped); unset: embedded PostgreSQL
//   BENCH_CLUSTER_APIS         API processes (default 2)
//   BENCH_CLUSTER_WORKERS      worker processes (default 2)
//   BENCH_CLUSTER_DURATION_S   seconds of creates (default 60)
//   BENCH_CLUSTER_RATE         creates per second, over all APIs (default 100)
//   BENCH_CLUSTER_RECEIVER_MS  the receiver answers after this long (default 0)
//   WORKER_CONCURRENCY         passed to the workers (default theirs: 20)
// First: seeding goes through the services, whose modules declare type-graphql types.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { cpus, loadavg } from 'node:os';
import {
  ROOT,
  cleanup,
  cleanups,
  createBenchDatabase,
  createBenchOrganization,
  freePort,
  printTable,
  sleep,
  startCommandArguments,
  stopChild,
  withClient,
} from './harness.js';

const APIS = Number(process.env.BENCH_CLUSTER_APIS ?? 2);
const WORKERS = Number(process.env.BENCH_CLUSTER_WORKERS ?? 2);
const DURATION_S = Number(process.env.BENCH_CLUSTER_DURATION_S ?? 60);
const RATE = Number(process.env.BENCH_CLUSTER_RATE ?? 100);
const RECEIVER_MS = Number(process.env.BENCH_CLUSTER_RECEIVER_MS ?? 0);
const TICK_MS = 10;
/** How long a killed process stays down before it is started again. */
const DOWN_MS = 2_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Process {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  /** An API's port: the same when it is started again, as behind a load balancer. */
  port: number;
  url: string;
}

/** An API process (WORKER=off) or a worker process on this environment; resolves once it is ready. */
async function startProcess(
  name: string,
  role: 'api' | 'worker',
  env: Record<string, string>,
  port?: number,
): Promise<Process> {
  port ??= await freePort();
  const args = role === 'api' ? startCommandArguments() : ['--import', 'tsx', 'src/jobs/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), ...(role === 'api' && { WORKER: 'off' }) },
    // A worker says "worker started" (info) when it runs; of its output only errors and released jobs are shown.
    stdio: ['ignore', role === 'worker' ? 'pipe' : 'inherit', 'inherit'],
  });
  cleanups.push(() => stopChild(child));
  const started: Process = { name, role, child, port, url: `http://127.0.0.1:${port}` };
  const deadline = Date.now() + 120_000;
  if (role === 'worker') {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      for (const line of chunk.split('\n'))
        if (/released the jobs|"level":[56]0/.test(line)) console.log(`${name}: ${line}`);
    });
    while (!/worker started/.test(output)) {
      if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`${name} did not start within 120 s`);
      await sleep(100);
    }
    return started;
  }
  for (; ; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${name} was not ready within 120 s`);
    if (
      await fetch(`${started.url}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return started;
  }
}

async function kill(target: Process): Promise<void> {
  const exited = once(target.child, 'exit');
  target.child.kill('SIGKILL');
  await exited;
}

interface Arrival {
  eventId: string;
  /** The sender's port: tells which process sent it (socketsOf). */
  fromPort: number;
  contactId: string;
  at: number;
}

/** The webhook receiver: records each delivery's event id, contact id and arrival, answers after RECEIVER_MS. */
async function startReceiver(): Promise<{ url: string; port: number; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: string;
        data: { object: { id: string } };
      };
      const fromPort = req.socket.remotePort ?? 0;
      arrivals.push({ eventId: body.id, contactId: body.data.object.id, fromPort, at: performance.now() });
      const answer = () => res.end('ok');
      if (RECEIVER_MS > 0) setTimeout(answer, RECEIVER_MS);
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, port, arrivals };
}

/** The local ports of a process's TCP connections to `port` (Linux: /proc), read before it is killed. */
function portsConnectedTo(pid: number, port: number): Set<number> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' }).toString();
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    }
  } catch {
    return new Set();
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[] = [];
    try {
      lines = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || !inodes.has(fields[9]!)) continue;
      const local = parseInt(fields[1]!.split(':')[1]!, 16);
      const remote = parseInt(fields[2]!.split(':')[1]!, 16);
      if (remote === port) ports.add(local);
    }
  }
  return ports;
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bp_bench_cluster');
  const organization = await createBenchOrganization(database.url, 'Cluster', ['admin']);
  const env = {
    DATABASE_URL: database.url,
    // Development: webhooks may go to a receiver on loopback (local conveniences).
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    RATE_LIMIT_MAX: '1000000000',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  const workerEnv = { ...env, LOG_LEVEL: 'info' };
  const apis = await Promise.all(Array.from({ length: APIS }, (_, i) => startProcess(`api${i + 1}`, 'api', env)));
  const workers: Process[] = [];
  for (let i = 0; i < WORKERS; i++) workers.push(await startProcess(`worker${i + 1}`, 'worker', workerEnv));
  const receiver = await startReceiver();
  const subscribed = await fetch(`${apis[0]!.url}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${organization.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['contact.created'] }),
  });
  if (subscribed.status !== 201) throw new Error(`subscription: ${subscribed.status} ${await subscribed.text()}`);
  console.log(
    `${APIS} API processes (WORKER=off), ${WORKERS} worker processes, PostgreSQL: ${database.where}; ` +
      `${RATE} creates/s for ${DURATION_S} s; receiver answers after ${RECEIVER_MS} ms`,
  );

  /** Contact id -> when its 201 arrived (the commit was before). */
  const answeredAt = new Map<string, number>();
  let refused = 0;
  let cutOff = 0;
  const down = new Set<Process>();
  /** Failures other than the killed API's, by process and status or error code. */
  const failures = new Map<string, number>();
  const failed = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  const create = async (api: Process, n: number) => {
    try {
      const response = await fetch(`${api.url}/v1/crm/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `cluster${n}@example.test` }),
      });
      const body = (await response.json()) as { id?: string };
      if (response.status === 201 && body.id) answeredAt.set(body.id, performance.now());
      else failed(`${api.name} ${response.status}`);
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'ECONNREFUSED') refused += 1;
      else if (down.has(api)) cutOff += 1;
      else failed(`${api.name} ${code}`);
    }
  };

  // Kill one API and one worker along the way, each started again after DOWN_MS.
  const restarts: Promise<void>[] = [];
  let workerKilledAt = Infinity;
  /** The killed worker's connections to the receiver: what arrived on them, it sent. */
  let killedWorkerPorts = new Set<number>();
  const killAt = (atS: number, list: Process[], envOf: Record<string, string>) =>
    setTimeout(() => {
      const victim = list[0]!;
      restarts.push(
        (async () => {
          down.add(victim);
          const killedAt = performance.now();
          if (victim.role === 'worker') {
            workerKilledAt = killedAt;
            killedWorkerPorts = portsConnectedTo(victim.child.pid!, receiver.port);
          }
          await kill(victim);
          console.log(`${((killedAt - started) / 1000).toFixed(1)} s: ${victim.name} killed (SIGKILL)`);
          await sleep(DOWN_MS);
          list[0] = await startProcess(victim.name, victim.role, envOf, victim.port);
          down.delete(victim);
          console.log(
            `${((performance.now() - started) / 1000).toFixed(1)} s: ${victim.name} started again ` +
              `(down ${((performance.now() - killedAt) / 1000).toFixed(1)} s)`,
          );
        })(),
      );
    }, atS * 1000);

  const started = performance.now();
  const timers = [killAt(DURATION_S / 3, apis, env), killAt((2 * DURATION_S) / 3, workers, workerEnv)];
  const requests: Promise<void>[] = [];
  let sent = 0;
  // A killed API keeps its turn (a load balancer that has not yet seen it fail): its port refuses.
  // Each pass sends what the schedule says is due by now, so a late timer does not lower the rate.
  for (let elapsed = 0; elapsed < DURATION_S * 1000; elapsed = performance.now() - started) {
    for (const due = Math.floor((elapsed * RATE) / 1000); sent < due; sent++) {
      requests.push(create(apis[sent % apis.length]!, sent));
    }
    // Always yield, even when behind: the kill timers and the answers run between passes.
    await sleep(TICK_MS);
  }
  await Promise.all(requests);
  const producedIn = (performance.now() - started) / 1000;
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(restarts);

  const { events, rows } = await withClient(database.url, async (client) => {
    const counted = await client.query<{ rows: number }>(
      'select count(*)::int as rows from "Contact" where "organizationId" = $1',
      [organization.id],
    );
    const committed = await client.query<{ id: string }>(
      `select id from "Event" where "organizationId" = $1 and type = 'contact.created'`,
      [organization.id],
    );
    return { rows: counted.rows[0]!.rows, events: committed.rows.map(({ id }) => id) };
  });
  // Every committed event should arrive: wait for it (up to 60 s), then for late duplicates.
  const delivered = () => new Set(receiver.arrivals.map(({ eventId }) => eventId));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
    const got = delivered();
    if (events.every((id) => got.has(id))) break;
  }
  await sleep(2_000);
  // Attempts recorded as failed (a receiver too slow for WEBHOOK_TIMEOUT_MS): their retries are duplicates too.
  const failedAttempts = await withClient(database.url, async (client) => {
    const { rows: failedRows } = await client.query<{ eventId: string; error: string | null }>(
      `select "eventId", coalesce(error, 'status ' || "statusCode") as error from "WebhookDelivery"
       where "organizationId" = $1 and status <> 'succeeded'`,
      [organization.id],
    );
    return failedRows;
  });
  const retried = new Set(failedAttempts.map(({ eventId }) => eventId));

  const got = delivered();
  const missing = events.filter((id) => !got.has(id)).length;
  const duplicates = receiver.arrivals.length - got.size;
  // A duplicate the killed worker explains: first sent before it died, its attempt never recorded.
  const firstAt = new Map<string, number>();
  let duplicatesOfKilled = 0;
  let duplicatesRetried = 0;
  const firstFrom = new Map<string, number>();
  for (const { eventId, at, fromPort } of receiver.arrivals) {
    const first = firstAt.get(eventId);
    if (first === undefined) {
      firstAt.set(eventId, at);
      firstFrom.set(eventId, fromPort);
    } else if (retried.has(eventId)) duplicatesRetried += 1;
    else if (killedWorkerPorts.has(firstFrom.get(eventId)!)) duplicatesOfKilled += 1;
    else
      console.log(`unexplained duplicate ${eventId}: first ${(first - workerKilledAt).toFixed(0)} ms after the kill`);
  }
  const firstArrival = new Map<string, number>();
  for (const { contactId, at } of receiver.arrivals) if (!firstArrival.has(contactId)) firstArrival.set(contactId, at);
  const latencies = [...firstArrival.entries()]
    .filter(([contactId]) => answeredAt.has(contactId))
    .map(([contactId, at]) => Math.max(0, at - answeredAt.get(contactId)!))
    .sort((a, b) => a - b);

  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
  console.log(`\nload average at the end: ${load} (${cpus().length} CPUs)`);
  console.log(`${sent} creates sent in ${producedIn.toFixed(1)} s (${(sent / producedIn).toFixed(0)}/s)`);
  printTable([
    [
      'receiver',
      'rows',
      'events',
      'unique deliveries',
      'duplicates',
      'of killed worker',
      'retries',
      'unexplained',
      'missing',
      'p50 ms',
      'p99 ms',
      'max ms',
      'refused',
      'cut off',
      'other failures',
    ],
    [
      `${RECEIVER_MS} ms`,
      String(rows),
      String(events.length),
      String(got.size),
      String(duplicates),
      String(duplicatesOfKilled),
      String(duplicatesRetried),
      String(duplicates - duplicatesOfKilled - duplicatesRetried),
      String(missing),
      percentile(latencies, 50).toFixed(0),
      percentile(latencies, 99).toFixed(0),
      (latencies.at(-1) ?? NaN).toFixed(0),
      String(refused),
      String(cutOff),
      String([...failures.values()].reduce((sum, n) => sum + n, 0)),
    ],
  ]);
  if (failures.size) console.log('other failures:', Object.fromEntries(failures));
  if (failedAttempts.length) {
    const reasons = new Map<string, number>();
    for (const { error } of failedAttempts) reasons.set(String(error), (reasons.get(String(error)) ?? 0) + 1);
    console.log('failed attempts (retried later):', Object.fromEntries(reasons));
  }
  console.log('latency: from the 201 (after the commit) to the first arrival of its event');
  console.log(
    'duplicates: of killed worker: first sent by it (on its connections), its job never done; ' +
      'retries: after an attempt recorded as failed (the receiver slower than WEBHOOK_TIMEOUT_MS)',
  );
  console.log('refused: connection refused by the killed API; cut off: in flight when it died (may have committed)');
}

try {
  await main();
} finally {
  await cleanup();
}
