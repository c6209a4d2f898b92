// npm run bench:changes: the change feed end to end. Producers commit
// contact.created events (the trigger writes their changes) at a steady rate
// (BENCH_CHANGES_RATE per second, default 1,000) until BENCH_CHANGES (default
// 10,000) are written, 4 pooled connections, several events per transaction. One
// client follows GET /v1/changes (limit 1000, wait 30) on the service started as
// `npm start` starts it. Printed: changes read per second by that client, from the
// first commit to the last change read, and the lag from each commit to the
// answer that carried it (p50, p99, max); and whether each was read exactly once.
//
//   DATABASE_URL          a PostgreSQL server to use (database bp_bench_changes is
//                         created and dropped); unset: embedded PostgreSQL
//   BENCH_CHANGES         changes to commit (default 10000)
//   BENCH_CHANGES_RATE    changes committed per second (default 1000)
import 'reflect-metadata';
import pg from 'pg';
import { newId } from '../src/ids.js';
import {
  cleanup,
  createBenchDatabase,
  createBenchOrganization,
  printTable,
  serviceEnv,
  sleep,
  startCommandArguments,
  startServer,
} from './harness.js';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 10_000);
const RATE = Number(process.env.BENCH_CHANGES_RATE ?? 1_000);
const TICK_MS = 10;
const PRODUCERS = 4;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const database = await createBenchDatabase('bp_bench_changes');
  const organization = await createBenchOrganization(database.url, 'Changes', ['crm:read']);
  const service = await startServer('service', {
    poolSize: 10,
    args: startCommandArguments(),
    env: serviceEnv(database.url),
    readyPath: '/readyz',
  });

  const committedAt = new Map<string, number>();
  const lags: number[] = [];
  let duplicates = 0;
  let done = false;
  let lastRead = 0;
  const seen = new Set<string>();
  const reader = (async () => {
    let after: string | undefined;
    while (!done) {
      const url = `${service.url}/v1/changes?limit=1000&wait=30${after ? `&after=${after}` : ''}`;
      const response = await fetch(url, { headers: { authorization: `Bearer ${organization.key}` } });
      if (!response.ok) throw new Error(`changes: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { data: { id: string }[]; next: string };
      const now = performance.now();
      for (const { id } of page.data) {
        if (seen.has(id)) duplicates += 1;
        seen.add(id);
        // Read before the producer heard its COMMIT answered: a lag under a tick.
        lags.push(Math.max(0, now - (committedAt.get(id) ?? now)));
        lastRead = now;
      }
      after = page.next;
      if (seen.size >= CHANGES) done = true;
    }
  })();

  const producers = new pg.Pool({ connectionString: database.url, max: PRODUCERS });
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  console.log(`Committing ${CHANGES} contact changes at ${RATE}/s (${perTick} per transaction every ${TICK_MS} ms)`);
  const started = performance.now();
  const commits: Promise<void>[] = [];
  for (let produced = 0, tick = 0; produced < CHANGES; tick++) {
    const count = Math.min(perTick, CHANGES - produced);
    produced += count;
    const ids = Array.from({ length: count }, () => newId('event'));
    commits.push(
      producers
        .query(
          `insert into "Event" (id, "organizationId", type, data)
           select id, $2, 'contact.created', jsonb_build_object('object', jsonb_build_object('id', 'con_' || id))
           from unnest($1::text[]) as id`,
          [ids, organization.id],
        )
        .then(() => {
          const now = performance.now();
          for (const id of ids) committedAt.set(`con_${id}`, now);
        }),
    );
    const wait = started + (tick + 1) * TICK_MS - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(commits);
  await Promise.race([reader, sleep(120_000)]);
  done = true;
  await producers.end();

  const sorted = [...lags].sort((a, b) => a - b);
  const seconds = (lastRead - started) / 1000;
  printTable([
    ['read', 'duplicates', 'changes/s (one client)', 'lag p50 ms', 'lag p99 ms', 'max ms'],
    [
      `${seen.size} of ${CHANGES}`,
      String(duplicates),
      (seen.size / seconds).toFixed(0),
      percentile(sorted, 50).toFixed(0),
      percentile(sorted, 99).toFixed(0),
      (sorted.at(-1) ?? NaN).toFixed(0),
    ],
  ]);
  console.log('lag: from the commit of a change to the answer of GET /v1/changes that carried it');
  if (seen.size < CHANGES) console.log(`\nWARNING: ${CHANGES - seen.size} changes not read in 120 s`);
}

try {
  await main();
} finally {
  await cleanup();
}
