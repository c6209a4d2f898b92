// npm run bench:scale: does a list stay flat as an organization's data grows?
// Measures the service (as `npm start` runs it) at 10,000, 100,000 and
// 1,000,000 contacts in one organization, with as many rows of another
// organization in the same table: the unfiltered list's first page, a deep page
// (90% of the way through) by page number and by cursor (`after`, which should
// cost what the first page costs), and the q search for a rare word (20
// matches at every size) and for a common one (11% of the rows match; its total
// is counted up to 1,000, kit/page.ts COUNT_CAP, then a lower bound).
//
//   DATABASE_URL        a PostgreSQL server to use (database bp_bench_scale is
//                       created and dropped); unset: embedded PostgreSQL
//   BENCH_SCALE_SIZES   comma-separated sizes (default 10000,100000,1000000)
//   BENCH_DURATION_S    seconds measured per scenario and size (default 5)
//   BENCH_SCALE_KEEP=1  keep the seeded database (bp_bench_scale_kept, or the
//                       name given instead of 1, on DATABASE_URL's server) and
//                       reuse it next run: seeding a million rows twice takes
//                       minutes; new migrations are applied to it, as to a
//                       deployment's data
// First: seeding goes through the services, whose modules declare type-graphql types.
import 'reflect-metadata';
import autocannon from 'autocannon';
import { quoteIdentifier, withDatabaseName } from '../src/db/database-url.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { connectDatabase } from '../src/db/prisma.js';
import { operatorPrincipal } from '../src/auth/principal.js';
import { createServices } from '../src/graphql/modules.js';
import {
  cleanup,
  createBenchDatabase,
  createBenchOrganization,
  cpuTimeMs,
  printTable,
  serviceEnv,
  sleep,
  startCommandArguments,
  startServer,
  withClient,
} from './harness.js';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 16;
const BATCH = 100_000;
const RARE_MATCHES = 20;

interface Scenario {
  name: string;
  /** The path measured; `get` fetches a path of the service (to find a cursor). */
  path: (size: number, get: (path: string) => Promise<{ pagination: { next: string | null } }>) => Promise<string>;
}

const deepPage = (size: number) => Math.floor((size * 0.9) / 50);

/** The cursor that continues at 90% of the list in this order: the `next` of the page before. */
async function cursorAt90(size: number, sort: string, get: Parameters<Scenario['path']>[1]): Promise<string> {
  const before = await get(`/v1/crm/contacts?limit=50&sort=${sort}&page=${deepPage(size) - 1}`);
  const next = before.pagination.next;
  if (!next) throw new Error('no cursor at 90%');
  return `/v1/crm/contacts?limit=50&sort=${sort}&after=${encodeURIComponent(next)}`;
}

const SCENARIOS: Scenario[] = [
  { name: 'list, page 1', path: async () => '/v1/crm/contacts?limit=50' },
  { name: 'list, page at 90%', path: async (size) => `/v1/crm/contacts?limit=50&page=${deepPage(size)}` },
  { name: 'list, cursor at 90%', path: (size, get) => cursorAt90(size, 'createdAt', get) },
  { name: 'newest first, page 1', path: async () => '/v1/crm/contacts?limit=50&sort=-createdAt' },
  { name: 'newest first, cursor at 90%', path: (size, get) => cursorAt90(size, '-createdAt', get) },
  { name: `q, rare word (${RARE_MATCHES} rows)`, path: async () => '/v1/crm/contacts?limit=50&q=zyxwv' },
  { name: 'q, common words (11% of rows)', path: async () => '/v1/crm/contacts?limit=50&q=company%207' },
];

/** Contacts number `from + 1` to `to` of each organization, in batches; the first few carry the rare word. */
async function addContacts(url: string, organizationIds: string[], from: number, to: number): Promise<void> {
  await withClient(url, async (client) => {
    for (const [n, organizationId] of organizationIds.entries()) {
      for (let start = from; start < to; start += BATCH) {
        await client.query(
          `insert into "Contact" (id, "organizationId", "firstName", "lastName", email, company, tags, "createdAt", "updatedAt")
           select 'con_scale' || $4::int || lpad(i::text, 20, '0'), $1, 'First' || i, 'Last' || i,
                  'contact' || i || '@scale.example',
                  case when i <= $5::int then 'Zyxwv Labs' else 'Company ' || (i % 100) end,
                  array['scale'], at, at
           from generate_series($2::int + 1, $3::int) as i,
                lateral (select timestamptz '2020-01-01 00:00:00Z' + i * interval '1 second' as at) as t`,
          [organizationId, start, Math.min(start + BATCH, to), n, RARE_MATCHES],
        );
      }
    }
    await client.query('vacuum analyze "Contact"');
  });
}

const KEEP = Boolean(process.env.BENCH_SCALE_KEEP);
const KEPT_DATABASE = process.env.BENCH_SCALE_KEEP === '1' ? 'bp_bench_scale_kept' : process.env.BENCH_SCALE_KEEP!;

/** BENCH_SCALE_KEEP: the kept database (created and migrated when missing) on DATABASE_URL's server. */
async function keptDatabase(): Promise<{ url: string; where: string }> {
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error('BENCH_SCALE_KEEP=1 needs DATABASE_URL (a server the database outlives the run on)');
  await withClient(withDatabaseName(server, 'postgres'), async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [KEPT_DATABASE]);
    if (!rowCount) await client.query(`create database ${quoteIdentifier(KEPT_DATABASE)}`);
  });
  const url = withDatabaseName(server, KEPT_DATABASE);
  const applied = await applyMigrations(url);
  if (applied.length) {
    console.log(`kept database: applied ${applied.join(', ')}`);
    // A migration that rewrote the table left its visibility map empty (index-only scans read the heap).
    await withClient(url, (client) => client.query('vacuum analyze "Contact"'));
  }
  return { url, where: `${new URL(url).host}/${KEPT_DATABASE} (kept)` };
}

/** The organization of this name with a new key, when the kept database has it; else a new one. */
async function benchOrganization(url: string, name: string): Promise<{ id: string; key: string }> {
  const found = await withClient(url, (client) =>
    client.query<{ id: string }>('select id from "Organization" where name = $1 order by "createdAt" limit 1', [name]),
  );
  const id = found.rows[0]?.id;
  if (!id) return createBenchOrganization(url, name, ['crm:read']);
  const clients = connectDatabase(url, 2);
  try {
    const { key } = await createServices(clients).apiKeys.create(operatorPrincipal(id), {
      name: 'bench',
      scopes: ['crm:read'],
    });
    return { id, key };
  } finally {
    await clients.prisma.$disconnect();
  }
}

/** How many contacts the kept database holds already in the measured organization. */
const seededIn = (url: string, organizationId: string) =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from "Contact" where "organizationId" = $1',
      [organizationId],
    );
    return rows[0]!.n;
  });

/**
 * Waits until PostgreSQL runs nothing of the bench's database: a scenario's
 * requests end when autocannon stops, but the statements of those it left
 * queued in the service (a deep page by number: 0.5 s each) run on, and were
 * measured as the next scenario's cost (the cursor at 90% came right after).
 */
async function settle(url: string): Promise<void> {
  const started = Date.now();
  await withClient(url, async (client) => {
    for (const deadline = started + 60_000; Date.now() < deadline; await sleep(100)) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend' and state = 'active'
           and pid <> pg_backend_pid()`,
      );
      if (rows[0]!.n === 0) break;
    }
  });
  const waited = Date.now() - started;
  if (waited > 500) console.log(`  (PostgreSQL finished the last scenario's statements ${waited} ms after it ended)`);
}

/** The CPU so far of the service's process and of PostgreSQL's backends serving the bench's database, in ms. */
async function cpuNow(url: string, servicePid: number): Promise<{ service: number; postgres: number }> {
  const backends = await withClient(url, (client) =>
    client.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    ),
  );
  const postgres = backends.rows.reduce((sum, { pid }) => sum + (cpuTimeMs(pid) ?? 0), 0);
  return { service: cpuTimeMs(servicePid) ?? 0, postgres };
}

async function main(): Promise<void> {
  const database = KEEP ? await keptDatabase() : await createBenchDatabase('bp_bench_scale');
  const measured = await benchOrganization(database.url, 'Measured');
  const other = await benchOrganization(database.url, 'Other');
  const service = await startServer('service', {
    poolSize: 10,
    args: startCommandArguments(),
    env: serviceEnv(database.url),
    readyPath: '/readyz',
  });
  console.log(`PostgreSQL: ${database.where}; ${CONNECTIONS} connections, ${DURATION_S} s per scenario and size`);

  const results = new Map<string, string[]>(SCENARIOS.map(({ name }) => [name, []]));
  const rates = new Map<string, number[]>(SCENARIOS.map(({ name }) => [name, []]));
  const cpus = new Map<string, string[]>(SCENARIOS.map(({ name }) => [name, []]));
  const cpuTotals = new Map<string, number[]>(SCENARIOS.map(({ name }) => [name, []]));
  let seeded = KEEP ? await seededIn(database.url, measured.id) : 0;
  let warm = false;
  for (const size of SIZES) {
    const started = Date.now();
    if (size < seeded) throw new Error(`the kept database holds ${seeded} contacts already: sizes from there`);
    if (size > seeded) await addContacts(database.url, [measured.id, other.id], seeded, size);
    seeded = size;
    console.log(
      `${size} contacts in each of 2 organizations (seeded in ${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    const headers = { authorization: `Bearer ${measured.key}` };
    const get = async (path: string) => {
      const res = await fetch(service.url + path, { headers });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { pagination: { next: string | null } };
    };
    for (const scenario of SCENARIOS) {
      const url = service.url + (await scenario.path(size, get));
      await settle(database.url);
      const check = await fetch(url, { headers });
      if (!check.ok) throw new Error(`${scenario.name}: ${check.status} ${await check.text()}`);
      // The first measurement also warms the service up (JIT, prepared statements).
      await autocannon({ url, headers, connections: CONNECTIONS, duration: warm ? 1 : 5 });
      warm = true;
      await settle(database.url);
      // CPU per request, the service's and PostgreSQL's: what load on the machine disturbs least.
      const before = await cpuNow(database.url, service.pid);
      const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
      await settle(database.url);
      const after = await cpuNow(database.url, service.pid);
      const served = result.requests.total || 1;
      const cpu = {
        service: (after.service - before.service) / served,
        postgres: (after.postgres - before.postgres) / served,
      };
      // Under this load a slow search can run into the statement timeout (503): shown, not hidden.
      const failed = result.non2xx + result.errors + result.timeouts;
      const cell = `${result.requests.average.toFixed(0)} (${result.latency.p50} ms)${failed ? `, ${failed} failed` : ''}`;
      const cpuCell = `${(cpu.service + cpu.postgres).toFixed(2)} (${cpu.service.toFixed(2)} + ${cpu.postgres.toFixed(2)})`;
      console.log(`  ${scenario.name}: ${cell}; CPU ms/request ${cpuCell} (service + PostgreSQL)`);
      results.get(scenario.name)!.push(cell);
      rates.get(scenario.name)!.push(result.requests.average);
      cpus.get(scenario.name)!.push(cpuCell);
      cpuTotals.get(scenario.name)!.push(cpu.service + cpu.postgres);
    }
  }

  console.log();
  const header = ['scenario', ...SIZES.map((size) => `${size.toLocaleString('en')}: req/s (p50)`)];
  const last = SIZES.length - 1;
  const firstPage = rates.get('list, page 1')!;
  const firstPageCpu = cpuTotals.get('list, page 1')!;
  const largest = SIZES[last]!.toLocaleString('en');
  printTable([
    [
      ...header,
      `${largest} vs ${SIZES[0]!.toLocaleString('en')}`,
      `vs page 1 at ${largest}`,
      `CPU ms/request at ${largest} (service + PostgreSQL)`,
      `CPU vs page 1`,
    ],
    ...SCENARIOS.map(({ name }) => {
      const rate = rates.get(name)!;
      const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
      return [
        name,
        ...results.get(name)!,
        percent(rate[last]! / rate[0]!),
        percent(rate[last]! / firstPage[last]!),
        cpus.get(name)![last]!,
        `${(cpuTotals.get(name)![last]! / firstPageCpu[last]!).toFixed(2)}x`,
      ];
    }),
  ]);
}

try {
  await main();
} finally {
  await cleanup();
}
