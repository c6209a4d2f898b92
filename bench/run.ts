// npm run bench: the service against a minimal node:http + pg baseline
// (bench/baselines/node-http.ts) and a bare Express 5 server doing the same work
// (bench/baselines/express.ts), on the same PostgreSQL, same data, same load,
// side by side. Load comes from wrk (bench/wrk.ts), a process of its own; the
// figure that counts is each server's CPU per request, as a ratio to the
// baseline's. Express's ratio shows what the framework itself costs.
//
// Adding a scenario (say employees): an entry in SCENARIOS below, and the route
// in the baselines' LISTS or CREATES (bench/baselines/work.ts).
//
//   DATABASE_URL       a PostgreSQL server to use (a fresh database bp_bench is created
//                      on it and dropped at the end); unset: embedded PostgreSQL under
//                      .data/bench on a free port
//   BENCH_DURATION_S   seconds measured per scenario and server (default 10)
//   BENCH_WARMUP_S     seconds of warm-up per scenario and server (default 2)
//   BENCH_SETTLE_S     idle memory is read 3 s after start and again this many seconds after
//                      (default 45: V8 gives start-up's memory back after about 25 quiet s)
//   BENCH_ROUNDS       measure each scenario this many times per server, alternating,
//                      and keep each server's best round (default 1)
//   DATABASE_POOL_SIZE pool size of both servers (default 10, the service's default)
//   BENCH_SCENARIO     only the scenarios whose name contains this (e.g. get, post, deal)
//   BENCH_PIN=1        each server on CPU 0 and wrk on CPU 1 (taskset). Off by default:
//                      on two cores it only took throughput (the server then shares one
//                      core with PostgreSQL's backends) and left the CPU ratios as they were
//   BENCH_WRK          the wrk binary (default /usr/bin/wrk)
//   BENCH_WEBHOOK=1    subscribe a receiver here to the service's contact.created (the
//                      baselines create in another organization, with no subscriber)
//   BENCH_PROFILE=1    run both servers under --cpu-prof and print where their main
//                      threads spend their time (profiles kept in .data/bench/profiles)
//   BENCH_VARIANT      a second service ("variant") measured beside the first, round for
//                      round: npm start's command with these words added, NAME=value ones
//                      to its environment, the others to node's arguments (an A/B of a
//                      flag or setting in the same minutes, e.g. "MALLOC_ARENA_MAX=2 --single-threaded-gc")
//   BENCH_VARIANT_DIR  run the variant from this other checkout of the service (built, its
//                      node_modules in place): an A/B of two commits in the same minutes, on
//                      one database (this checkout's migrations; BENCH_VARIANT may be empty)
//   BENCH_SERVERS      only these servers, comma-separated (default: all; without the
//                      baseline no ratio is printed)
//   BENCH_CONNECTIONS  wrk's connections (default 32). Fewer (4) leave the cores less
//                      contended with PostgreSQL's backends: steadier CPU per request for an A/B
// First: seeding goes through the services, whose modules declare type-graphql types.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { operatorPrincipal } from '../src/auth/principal.js';
import { connectDatabase } from '../src/db/prisma.js';
import { createServices } from '../src/graphql/modules.js';
import {
  DATA_DIR,
  ROOT,
  cleanup,
  cpuTimeMs,
  residentMemoryMb,
  createBenchDatabase,
  createBenchOrganization,
  printTable,
  startCommandArguments,
  serviceEnv,
  startServer,
  sleep,
  startReceiver,
  type Receiver,
  withClient,
  type Server as ChildServer,
} from './harness.js';
import { formatProfile, readProfile } from './profile.js';
import { requireWrk, runWrk, type WrkResult } from './wrk.js';

const PROFILE_DIR = path.join(DATA_DIR, 'profiles');
const DATABASE = 'bp_bench';
const CONTACTS = 10_000;
const DEALS = 10_000;
const EMPLOYEES = 10_000;
/** A large organization's departments: the employees are spread over them. */
const DEPARTMENTS = 200;
const HOLIDAYS = 520;
const INVOICES = 10_000;
/** What the bench's keys may do: every area it measures. */
const SCOPES = ['crm:read', 'crm:write', 'hr:read', 'hr:write', 'hr:payroll', 'finance:read', 'finance:write'] as const;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WRK_THREADS = 1;
const PIN = process.env.BENCH_PIN === '1';
const SERVER_CPUS = '0';
const WRK_CPUS = '1';
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 45);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PROFILE = process.env.BENCH_PROFILE === '1';
const WEBHOOK = process.env.BENCH_WEBHOOK === '1';

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** A create's body; `[<id>]` becomes a value unique to each request. */
  body?: string;
  /** Deletes the rows made by the answer check again. */
  cleanup?: string;
  /** The service's CPU per request must be at most this multiple of the baseline's (issue 15). */
  cpuTarget: number;
}

const ALL_SCENARIOS: Scenario[] = [
  { name: 'GET list', method: 'GET', path: '/v1/crm/contacts?page=1&limit=50', cpuTarget: 1.5 },
  { name: 'GET deals list', method: 'GET', path: '/v1/crm/deals?page=1&limit=50', cpuTarget: 1.5 },
  {
    name: 'POST create',
    method: 'POST',
    path: '/v1/crm/contacts',
    cleanup: `delete from "Contact" where email like 'bench-check-%'`,
    body: JSON.stringify({
      email: 'bench-[<id>]@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Analytical Engines',
      tags: ['bench', 'vip'],
    }),
    cpuTarget: 2,
  },
  {
    name: 'POST deal create',
    method: 'POST',
    path: '/v1/crm/deals',
    cleanup: `delete from "Deal" where title like 'Bench check-%'`,
    body: JSON.stringify({
      title: 'Bench [<id>]',
      amount: 1250000,
      currency: 'GBP',
      expectedCloseDate: '2027-03-31',
    }),
    cpuTarget: 2,
  },
  { name: 'GET invoices list', method: 'GET', path: '/v1/finance/invoices?page=1&limit=50', cpuTarget: 1.5 },
  {
    name: 'POST payment create',
    method: 'POST',
    path: '/v1/finance/payments',
    cleanup: `delete from "Payment" where reference like 'Bench check-%'`,
    body: JSON.stringify({ amount: 2500, currency: 'EUR', method: 'card', reference: 'Bench [<id>]' }),
    cpuTarget: 2,
  },
  { name: 'GET employees list', method: 'GET', path: '/v1/hr/employees?page=1&limit=50', cpuTarget: 1.5 },
  { name: 'GET compensation list', method: 'GET', path: '/v1/hr/compensation?page=1&limit=50', cpuTarget: 1.5 },
  { name: 'GET pay components list', method: 'GET', path: '/v1/hr/pay-components?page=1&limit=50', cpuTarget: 1.5 },
  {
    name: 'POST employee create',
    method: 'POST',
    path: '/v1/hr/employees',
    cleanup: `delete from "Employee" where email like 'bench-check-%'`,
    body: JSON.stringify({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'bench-[<id>]@example.com',
      startDate: '2026-01-05',
      salary: 9600000,
      currency: 'USD',
    }),
    cpuTarget: 2,
  },
  { name: 'GET departments list', method: 'GET', path: '/v1/hr/departments?page=1&limit=50', cpuTarget: 1.5 },
  { name: 'GET holidays list', method: 'GET', path: '/v1/hr/holidays?page=1&limit=50', cpuTarget: 1.5 },
  {
    name: 'POST department create',
    method: 'POST',
    path: '/v1/hr/departments',
    // One [<id>] per body (wrk and the check replace the first): the code, unique per request.
    cleanup: `delete from "Department" where code like 'CHECK-%'`,
    body: JSON.stringify({ name: 'Bench department', code: '[<id>]' }),
    cpuTarget: 2,
  },
];
const SCENARIOS = ALL_SCENARIOS.filter(({ name }) =>
  name.toLowerCase().includes((process.env.BENCH_SCENARIO ?? '').toLowerCase()),
);

type Server = ChildServer<'service' | 'variant' | 'baseline' | 'express'>;
const VARIANT_DIR = process.env.BENCH_VARIANT_DIR;
const VARIANT =
  process.env.BENCH_VARIANT !== undefined || VARIANT_DIR
    ? (process.env.BENCH_VARIANT ?? '').trim().split(/\s+/).filter(Boolean)
    : undefined;
const SERVERS = process.env.BENCH_SERVERS?.split(',').map((name) => name.trim());
/** This server is run (BENCH_SERVERS, BENCH_VARIANT). */
const runs = (name: Server['name']) =>
  name === 'variant' ? VARIANT !== undefined : !SERVERS || SERVERS.includes(name);

/** An organization, its API keys (SCOPES; admin), and its contacts, deals, employees and invoices. */
async function seed(url: string): Promise<{ key: string; adminKey: string; unsubscribedKey: string }> {
  const clients = connectDatabase(url, 2);
  const services = createServices(clients);
  try {
    const { organization } = await services.organizations.create({
      name: 'Bench',
      adminEmail: 'admin@bench.example',
      adminPassword: 'bench-password',
    });
    const { key } = await services.apiKeys.create(operatorPrincipal(organization.id), {
      name: 'bench',
      scopes: [...SCOPES],
    });
    const admin = await services.apiKeys.create(operatorPrincipal(organization.id), {
      name: 'bench admin',
      scopes: ['admin'],
    });
    // createdAt is a permutation of the ids (7919 is prime to 10000): ordering does real work.
    await withClient(url, async (client) => {
      await client.query(
        `insert into "Contact" (id, "organizationId", "firstName", "lastName", email, company, phone, tags, "createdAt", "updatedAt")
         select 'con_seed' || lpad(i::text, 22, '0'), $1, 'First' || i, 'Last' || i, 'contact' || i || '@seed.example',
                'Company ' || (i % 100), '+1 555 ' || lpad(i::text, 7, '0'), array['seed', 'tag' || (i % 10)], at, at
         from generate_series(1, $2::int) as i,
              lateral (select timestamptz '2024-01-01 00:00:00Z' + ((i * 7919) % $2::int) * interval '1 minute' as at) as t`,
        [organization.id, CONTACTS],
      );
      // Every stage, three of four deals with a contact, four of five with a date; same createdAt permutation.
      await client.query(
        `insert into "Deal" (id, "organizationId", title, amount, currency, stage, "contactId", "expectedCloseDate",
                             "closedAt", "createdAt", "updatedAt")
         select 'deal_seed' || lpad(i::text, 22, '0'), $1, 'Deal ' || i, ((i * 7919) % 1000000) * 100,
                (array['USD', 'EUR', 'GBP'])[1 + i % 3], s.stage,
                case when i % 4 = 0 then null else 'con_seed' || lpad((1 + (i * 31) % $3::int)::text, 22, '0') end,
                case when i % 5 = 0 then null else date '2026-01-01' + i % 365 end,
                case when s.stage in ('won', 'lost') then at + interval '7 days' end, at, at
         from generate_series(1, $2::int) as i,
              lateral (select timestamptz '2024-01-01 00:00:00Z' + ((i * 7919) % $2::int) * interval '1 minute' as at) as t,
              lateral (select (array['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'])[1 + i % 6] as stage) as s`,
        [organization.id, DEALS, CONTACTS],
      );
      // Ten years of an organization's holidays, one a week or so.
      await client.query(
        `insert into "Holiday" (id, "organizationId", date, name, "createdAt", "updatedAt")
         select 'hol_seed' || lpad(i::text, 22, '0'), $1, date '2020-01-01' + i * 7, 'Holiday ' || i, at, at
         from generate_series(1, $2::int) as i,
              lateral (select timestamptz '2024-01-01 00:00:00Z' + i * interval '1 minute' as at) as t`,
        [organization.id, HOLIDAYS],
      );
      await client.query(
        `insert into "Department" (id, "organizationId", name, code, "createdAt", "updatedAt")
         select 'dep_seed' || lpad(i::text, 22, '0'), $1, 'Department ' || i, 'DEP-' || i, at, at
         from generate_series(1, $2::int) as i,
              lateral (select timestamptz '2024-01-01 00:00:00Z' + ((i * 7919) % $2::int) * interval '1 minute' as at) as t`,
        [organization.id, DEPARTMENTS],
      );
      await client.query(
        `insert into "Employee" (id, "organizationId", "firstName", "lastName", email, "jobTitle", "departmentId",
                                 "startDate", "createdAt", "updatedAt")
         select 'emp_seed' || lpad(i::text, 22, '0'), $1, 'First' || i, 'Last' || i, 'employee' || i || '@seed.example',
                'Engineer', 'dep_seed' || lpad((1 + i % $3::int)::text, 22, '0'), date '2020-01-01' + i % 1000, at, at
         from generate_series(1, $2::int) as i,
              lateral (select timestamptz '2024-01-01 00:00:00Z' + ((i * 7919) % $2::int) * interval '1 minute' as at) as t`,
        [organization.id, EMPLOYEES, DEPARTMENTS],
      );
      // Each one's period of employment and salary (compensation from the start date), as a hire records them.
      await client.query(
        `insert into "Employment" ("organizationId", "employeeId", seq, "startDate")
         select "organizationId", id, 1, "startDate" from "Employee" where "organizationId" = $1`,
        [organization.id],
      );
      await client.query(
        `insert into "Compensation" (id, "organizationId", "employeeId", salary, currency, "effectiveFrom",
                                     "createdAt", "updatedAt")
         select 'cmp' || substr(id, 4), "organizationId", id, 5000000 + substr(id, 9)::int * 100, 'USD', "startDate",
                "createdAt", "createdAt"
         from "Employee" where "organizationId" = $1`,
        [organization.id],
      );
      // And a pension of 5% each.
      await client.query(
        `insert into "PayComponent" (id, "organizationId", "employeeId", kind, code, description, percentage, "from",
                                     "createdAt", "updatedAt")
         select 'pcp' || substr(id, 4), "organizationId", id, 'deduction', 'pension', 'Pension', 5, date '2020-01-01',
                "createdAt", "createdAt"
         from "Employee" where "organizationId" = $1`,
        [organization.id],
      );
      await client.query(
        `insert into "Invoice" (id, "organizationId", number, "contactId", currency, "issueDate", "dueDate", lines,
                                notes, subtotal, total, "amountPaid", status, "createdAt", "updatedAt")
         select 'inv_seed' || lpad(i::text, 22, '0'), $1, 'INV-' || lpad(i::text, 6, '0'),
                'con_seed' || lpad((1 + (i * 31) % $3::int)::text, 22, '0'), 'EUR', date '2026-01-01' + i % 365,
                date '2026-01-31' + i % 365,
                jsonb_build_array(jsonb_build_object('description', 'Work ' || i, 'quantity', 1.5, 'unitAmount', 10000,
                                                     'discountPercent', null, 'discountAmount', null, 'discount', 0,
                                                     'amount', 15000, 'taxRateIds', '[]'::jsonb, 'taxes', '[]'::jsonb)),
                null, 15000, 15000, 0, 'open', at, at
         from generate_series(1, $2::int) as i,
              lateral (select timestamptz '2024-01-01 00:00:00Z' + ((i * 7919) % $2::int) * interval '1 minute' as at) as t`,
        [organization.id, INVOICES, CONTACTS],
      );
      // Those already overdue were notified on the day after their due date, as the migration that
      // added the stamp counts them: otherwise the service's worker raises invoice.overdue for some
      // 8,000 of them in its first minutes, in the service's process, while its creates are measured.
      await client.query(
        `update "Invoice" i set "overdueNotifiedOn" = i."dueDate" + 1 from "Organization" o
         where o.id = i."organizationId" and i."organizationId" = $1 and i.status = 'open'
           and i."dueDate" < (now() at time zone o."timeZone")::date`,
        [organization.id],
      );
      await client.query('analyze');
    });
    // The baselines create their contacts here: no webhook fan-out for them, so the
    // service's creates, which pay for theirs, are compared with creates that do not.
    const unsubscribed = await createBenchOrganization(url, 'Bench, no webhooks', [...SCOPES]);
    return { key, adminKey: admin.key, unsubscribedKey: unsubscribed.key };
  } finally {
    await clients.prisma.$disconnect();
  }
}

/** One request of the answer check; a 503 (the database's connections all taken on a shared machine) is tried again. */
async function call(server: Server, key: string, scenario: Scenario, body?: string): Promise<string> {
  let response: Response;
  for (let attempt = 1; ; attempt++) {
    response = await fetch(server.url + scenario.path, {
      method: scenario.method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    if (response.status !== 503 || attempt === 5) break;
    await response.body?.cancel();
    await sleep(1_000);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${server.name}: ${scenario.name} answered ${response.status}: ${text}`);
  return text;
}

/**
 * The servers must answer alike, or the comparison means nothing: the same lists,
 * byte for byte, and a created contact with the same fields. The contacts
 * created here are deleted again, so the list scenario sees CONTACTS contacts.
 */
async function checkSameAnswers(servers: Server[], key: string, databaseUrl: string): Promise<void> {
  for (const get of ALL_SCENARIOS.filter(({ method }) => method === 'GET')) {
    const lists = await Promise.all(servers.map((server) => call(server, key, get)));
    if (lists.some((list) => list !== lists[0])) {
      throw new Error(`${get.name}: the servers differ:\n${lists.map((b) => b.slice(0, 400)).join('\n')}`);
    }
  }
  for (const post of ALL_SCENARIOS.filter(({ method }) => method === 'POST')) {
    const fields = await Promise.all(
      servers.map(async (server) => {
        const body = post.body!.replace('[<id>]', `check-${server.name}`);
        return Object.keys(JSON.parse(await call(server, key, post, body)) as object).join(', ');
      }),
    );
    if (fields.some((list) => list !== fields[0])) {
      throw new Error(`${post.name}: the servers create different records: ${fields.join(' / ')}`);
    }
    await withClient(databaseUrl, (client) => client.query(post.cleanup!));
  }
}

async function load(server: Server, scenario: Scenario, key: string, duration: number): Promise<WrkResult> {
  const result = await runWrk({
    url: server.url + scenario.path,
    method: scenario.method,
    headers: { authorization: `Bearer ${key}`, ...(scenario.body && { 'content-type': 'application/json' }) },
    body: scenario.body,
    connections: CONNECTIONS,
    threads: WRK_THREADS,
    durationS: duration,
    cpus: PIN ? WRK_CPUS : undefined,
  });
  server.served += result.requests;
  return result;
}

interface Measurement {
  reqPerSecond: number;
  /** The server process's CPU time per request answered. */
  cpuMsPerRequest?: number;
  p50: number;
  p99: number;
  /** Summed over every round: a failure is never hidden by picking the best round. */
  non2xx: number;
  errors: number;
  /** The server's resident memory (its process tree) right after its rounds under this load, in MB. */
  rssMb?: number;
}

/**
 * Waits until the service's worker has delivered the webhooks of the contacts just
 * created (no delivery for a second), so the next round, whichever server it
 * measures, does not share the machine with them. Their cost stays in the
 * service's own round: the deliveries run beside its creates.
 */
async function subscribeContactCreated(service: Server, adminKey: string): Promise<Receiver> {
  const receiver = await startReceiver();
  const subscribed = await fetch(`${service.url}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['contact.created'] }),
  });
  if (subscribed.status !== 201) throw new Error(`subscription: ${subscribed.status} ${await subscribed.text()}`);
  return receiver;
}

async function webhooksDelivered(receiver: Receiver): Promise<void> {
  for (let seen = -1, deadline = Date.now() + 120_000; receiver.received !== seen && Date.now() < deadline;) {
    seen = receiver.received;
    await sleep(1_000);
  }
}

/**
 * Warms the servers up, then measures them in turn, ROUNDS times (the order
 * alternating), and keeps each server's round of least CPU per request: load from
 * elsewhere on the machine only ever adds to it (preemption, caches).
 */
async function measure(
  servers: Server[],
  scenario: Scenario,
  keyOf: (server: Server) => string,
  settle: () => Promise<void>,
): Promise<Map<Server['name'], Measurement>> {
  for (const server of servers) {
    await load(server, scenario, keyOf(server), WARMUP_S);
    await settle();
  }
  const results = new Map<Server['name'], Measurement>();
  for (let n = 1; n <= ROUNDS; n++) {
    for (const server of n % 2 ? servers : [...servers].reverse()) {
      process.stdout.write(`measuring ${scenario.name} on ${server.name} (round ${n}/${ROUNDS})... `);
      const cpuBefore = cpuTimeMs(server.pid);
      const result = await load(server, scenario, keyOf(server), DURATION_S);
      await settle();
      const cpuMs = cpuBefore === undefined ? undefined : cpuTimeMs(server.pid)! - cpuBefore;
      const cpuMsPerRequest = cpuMs === undefined ? undefined : cpuMs / result.requests;
      const rssMb = residentMemoryMb(server.pid)?.now;
      console.log(`${result.reqPerSecond.toFixed(0)} req/s, ${cpuMsPerRequest?.toFixed(3) ?? '-'} ms CPU/req`);
      const best = results.get(server.name);
      const round: Measurement = {
        reqPerSecond: result.reqPerSecond,
        cpuMsPerRequest,
        p50: result.p50,
        p99: result.p99,
        non2xx: result.non2xx + (best?.non2xx ?? 0),
        errors: result.errors + (best?.errors ?? 0),
        rssMb: Math.max(rssMb ?? 0, best?.rssMb ?? 0) || undefined,
      };
      const { non2xx, errors } = round;
      const better = !best || (round.cpuMsPerRequest ?? 0) < (best.cpuMsPerRequest ?? 0);
      results.set(server.name, better ? round : { ...best, non2xx, errors, rssMb: round.rssMb });
    }
  }
  return results;
}

function printProfile(server: Server): void {
  const dir = path.join(PROFILE_DIR, server.name);
  const mainThread = readdirSync(dir)
    .map((file) => path.join(dir, file))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!mainThread) return;
  const summary = readProfile(mainThread, server.startupMs);
  console.log(
    `\nCPU profile of the ${server.name}, start-up left out (${path.relative(ROOT, mainThread)}): ` +
      `${summary.busyMs.toFixed(0)} ms busy for ${server.served} requests = ` +
      `${(summary.busyMs / server.served).toFixed(2)} ms per request on its main thread ` +
      `(wall-clock samples: includes time spent preempted inside system calls)`,
  );
  console.log(formatProfile(summary, server.name === 'service' ? 25 : 10));
}

/** Pins every thread of a server to SERVER_CPUS (threads it starts later inherit it). */
function pin(server: Server): void {
  execFileSync('taskset', ['-a', '-p', '-c', SERVER_CPUS, String(server.pid)], { stdio: 'ignore' });
}

async function main(): Promise<void> {
  requireWrk();
  const database = await createBenchDatabase(DATABASE);
  const { key, adminKey, unsubscribedKey } = await seed(database.url);
  if (PROFILE) rmSync(PROFILE_DIR, { recursive: true, force: true });

  const common = { poolSize: POOL_SIZE, profileDir: PROFILE ? PROFILE_DIR : undefined };
  const servers: Server[] = [];
  // One environment for both services: their in-process workers share the database's jobs and sealed secrets.
  const environment = serviceEnv(database.url);
  if (runs('service')) {
    servers.push(
      await startServer('service', {
        ...common,
        args: startCommandArguments(),
        env: environment,
        readyPath: '/readyz',
      }),
    );
  }
  if (VARIANT) {
    const variantEnv = Object.fromEntries(
      VARIANT.filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word)).map((word) => word.split(/=(.*)/s).slice(0, 2)),
    ) as Record<string, string>;
    const variantArgs = VARIANT.filter((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
    servers.push(
      await startServer('variant', {
        ...common,
        args: [...variantArgs, ...startCommandArguments()],
        env: { ...environment, ...variantEnv },
        ...(VARIANT_DIR && { cwd: VARIANT_DIR }),
        readyPath: '/readyz',
      }),
    );
  }
  if (runs('baseline')) {
    servers.push(
      await startServer('baseline', {
        ...common,
        args: ['--import', 'tsx', 'bench/baselines/node-http.ts'],
        env: { DATABASE_URL: database.url },
        readyPath: '/healthz',
      }),
    );
  }
  if (runs('express')) {
    servers.push(
      await startServer('express', {
        ...common,
        args: ['--import', 'tsx', 'bench/baselines/express.ts'],
        env: { DATABASE_URL: database.url },
        readyPath: '/healthz',
      }),
    );
  }
  if (PIN) servers.forEach(pin);
  // Idle: started, nothing asked of them yet but their readiness; then settled, once V8's memory
  // reducer has given back what start-up left (it runs about 25 s after a process goes quiet).
  await sleep(3_000);
  const idleMb = new Map(servers.map((server) => [server.name, residentMemoryMb(server.pid)?.now]));
  if (SETTLE_S > 3) await sleep((SETTLE_S - 3) * 1000);
  const settledMb = new Map(servers.map((server) => [server.name, residentMemoryMb(server.pid)?.now]));
  await checkSameAnswers(servers, key, database.url);
  // BENCH_WEBHOOK=1: the fan-out's cost. Every contact the service creates is then
  // delivered, by its in-process worker, to a receiver in this process.
  const receiver = WEBHOOK ? await subscribeContactCreated(servers[0]!, adminKey) : undefined;

  console.log(
    `PostgreSQL: ${database.where}; ${CONTACTS} contacts, ${DEALS} deals; pool size ${POOL_SIZE} (both servers); ` +
      `wrk, ${WRK_THREADS} thread, ${CONNECTIONS} connections; ` +
      (PIN ? `servers on CPU ${SERVER_CPUS}, wrk on CPU ${WRK_CPUS}; ` : 'no pinning; ') +
      `${WARMUP_S} s warm-up, then best of ${ROUNDS} x ${DURATION_S} s per scenario ` +
      `and server; node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const rows = [
    ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'RSS MB', 'non-2xx', 'errors', 'CPU vs baseline'],
  ];
  const misses: string[] = [];
  let failures = 0;
  for (const scenario of SCENARIOS) {
    // Lists read the one seeded organization; creates of the baselines go where no webhook listens.
    const keyOf = (server: Server) =>
      scenario.method === 'POST' && (server.name === 'baseline' || server.name === 'express') ? unsubscribedKey : key;
    const results = await measure(servers, scenario, keyOf, () =>
      receiver ? webhooksDelivered(receiver) : Promise.resolve(),
    );
    const cpuRatioOf = (name: Server['name']) => {
      const cpu = results.get(name)?.cpuMsPerRequest;
      const baselineCpu = results.get('baseline')?.cpuMsPerRequest;
      return cpu === undefined || baselineCpu === undefined ? undefined : cpu / baselineCpu;
    };
    const ratio = cpuRatioOf(runs('service') ? 'service' : 'variant');
    const times = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(2)}x`);
    const missed = ratio !== undefined && ratio > scenario.cpuTarget;
    const verdicts: Record<Server['name'], string> = {
      service: `${times(ratio)} (target <= ${scenario.cpuTarget}x${missed ? ', MISSED' : ''})`,
      variant: `${times(cpuRatioOf('variant'))} (${[VARIANT_DIR, ...(VARIANT ?? [])].filter(Boolean).join(' ')})`,
      baseline: '1x',
      express: `${times(cpuRatioOf('express'))} (the framework's own cost)`,
    };
    if (missed) misses.push(scenario.name);
    for (const { name } of servers) {
      const result = results.get(name)!;
      failures += result.non2xx + result.errors;
      rows.push([
        scenario.name,
        name,
        result.reqPerSecond.toFixed(0),
        result.p50.toFixed(1),
        result.p99.toFixed(1),
        result.cpuMsPerRequest?.toFixed(3) ?? '-',
        result.rssMb?.toFixed(0) ?? '-',
        String(result.non2xx),
        String(result.errors),
        verdicts[name],
      ]);
    }
  }
  console.log();
  printTable(rows);
  if (receiver) {
    console.log(
      `Webhooks: one subscription on contact.created (a receiver in the bench process); ${receiver.received} deliveries received`,
    );
  }
  console.log(
    "CPU ms/req: the server process's CPU time (user + system, /proc) per request answered; " +
      "RSS MB: its resident memory (its process and any it started but PostgreSQL: none in this bench) just after that scenario's load; " +
      "CPU vs baseline: that as a multiple of the minimal node:http baseline's",
  );
  const mb = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(0)} MB`);
  console.log(
    `Resident memory, idle 3 s after start${SETTLE_S > 3 ? ` / idle ${SETTLE_S} s after start` : ''} / the most held under load (VmHWM): ` +
      servers
        .map(({ name, pid }) =>
          [
            name,
            mb(idleMb.get(name)),
            ...(SETTLE_S > 3 ? ['/', mb(settledMb.get(name))] : []),
            '/',
            mb(residentMemoryMb(pid)?.peak),
          ].join(' '),
        )
        .join(', '),
  );
  if (misses.length) console.log(`\nAbove target: ${misses.join(', ')}`);
  if (failures) {
    console.log('\nWARNING: some requests failed (non-2xx or errors); the numbers above include them.');
  }

  if (PROFILE) {
    await cleanup(); // the servers write their profiles (one per thread) when they exit
    for (const server of servers) printProfile(server);
  }
}

try {
  await main();
} finally {
  await cleanup();
}
