// npm run bench:memory: the service's resident memory and CPU per request under
// several node command lines, side by side: idle after start, after a contacts
// list load and after a contact create load, and the most it held (VmHWM); with
// each load's CPU per request, so a setting that saves memory by spending CPU
// (a smaller young generation collects more often) shows both. Each variant is a
// fresh process on the same database; rounds alternate the order of the variants.
//
//   DATABASE_URL        a PostgreSQL server to use (database bp_bench_memory is
//                       created and dropped); unset: embedded PostgreSQL
//   BENCH_MEMORY_ARGS   variants, ';'-separated node arguments (default: npm start's
//                       command line with each young-generation setting below)
//   BENCH_DURATION_S    seconds measured per load (default 10), after 2 s of warm-up
//   BENCH_ROUNDS        starts of each variant (default 1); the table shows each round
// Memory is the service process's own (VmRSS, VmHWM): the bench gives it DATABASE_URL,
// so it starts no PostgreSQL, and none of its other children is counted (harness.ts).
import 'reflect-metadata';
import {
  cleanup,
  cpuTimeMs,
  createBenchDatabase,
  createBenchOrganization,
  printTable,
  residentMemoryMb,
  serviceEnv,
  sleep,
  startCommandArguments,
  startServer,
  stopChild,
  withClient,
} from './harness.js';
import { requireWrk, runWrk, type WrkLoad } from './wrk.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CONTACTS = 10_000;
const IDLE_MS = 5_000;

/** npm start's arguments with the young generation (--max-semi-space-size, MB) replaced; undefined: V8's default. */
function withSemiSpace(megabytes: number | undefined): string[] {
  const args = startCommandArguments().filter((arg) => !arg.startsWith('--max-semi-space-size'));
  return megabytes === undefined ? args : [`--max-semi-space-size=${megabytes}`, ...args];
}

const VARIANTS: string[][] = process.env.BENCH_MEMORY_ARGS
  ? process.env.BENCH_MEMORY_ARGS.split(';').map((variant) => variant.trim().split(/\s+/))
  : [undefined, 16, 32, 64].map(withSemiSpace);

async function main(): Promise<void> {
  requireWrk();
  const database = await createBenchDatabase('bp_bench_memory');
  const organization = await createBenchOrganization(database.url, 'Memory', ['crm:read', 'crm:write']);
  await withClient(database.url, (client) =>
    client.query(
      `insert into "Contact" (id, "organizationId", "firstName", "lastName", email, company, tags, "createdAt", "updatedAt")
       select 'con_seed' || lpad(i::text, 22, '0'), $1, 'First' || i, 'Last' || i, 'contact' || i || '@seed.example',
              'Company ' || (i % 100), array['seed'], now(), now()
       from generate_series(1, $2::int) as i`,
      [organization.id, CONTACTS],
    ),
  );
  const headers = { authorization: `Bearer ${organization.key}` };
  const loads: { name: string; load: Omit<WrkLoad, 'url' | 'durationS'>; path: string }[] = [
    {
      name: 'GET list',
      path: '/v1/crm/contacts?limit=50',
      load: { method: 'GET', headers, connections: 32, threads: 1 },
    },
    {
      name: 'POST create',
      path: '/v1/crm/contacts',
      load: {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'memory-[<id>]@example.com', firstName: 'Ada', tags: ['bench'] }),
        connections: 32,
        threads: 1,
      },
    },
  ];

  const rows = [
    [
      'variant',
      'round',
      'idle MB',
      ...loads.flatMap(({ name }) => [`${name} CPU ms/req`, 'MB after']),
      'peak MB',
      'failed',
    ],
  ];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const args of round % 2 ? VARIANTS : [...VARIANTS].reverse()) {
      const label = args.filter((arg) => arg !== '--import' && arg !== 'tsx').join(' ');
      process.stdout.write(`${label} (round ${round})... `);
      const service = await startServer('service', {
        args,
        env: serviceEnv(database.url),
        readyPath: '/readyz',
        poolSize: 10,
      });
      await sleep(IDLE_MS);
      const cells = [label, String(round), mb(residentMemoryMb(service.pid)?.now)];
      let failed = 0;
      for (const { path, load } of loads) {
        await runWrk({ ...load, url: service.url + path, durationS: WARMUP_S });
        const before = cpuTimeMs(service.pid)!;
        const result = await runWrk({ ...load, url: service.url + path, durationS: DURATION_S });
        const cpuMs = cpuTimeMs(service.pid)! - before;
        failed += result.non2xx + result.errors;
        cells.push((cpuMs / result.requests).toFixed(3), mb(residentMemoryMb(service.pid)?.now));
      }
      cells.push(mb(residentMemoryMb(service.pid)?.peak), String(failed));
      rows.push(cells);
      console.log(cells.slice(2).join(' / '));
      await stopChild(service.child);
    }
  }
  console.log();
  printTable(rows);
  console.log(
    `idle: ${IDLE_MS / 1000} s after ready; MB after: resident memory right after that load ` +
      `(${WARMUP_S} s warm-up, ${DURATION_S} s measured, wrk 32 connections); peak: VmHWM; ` +
      `failed: answers other than 2xx and connection errors (counted in CPU ms/req)`,
  );
}

const mb = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0));

try {
  await main();
} finally {
  await cleanup();
}
