// npm run bench:webhooks: webhook deliveries end to end. A producer commits
// events at a steady rate (BENCH_WEBHOOK_RATE per second, default 1,000) until
// BENCH_WEBHOOK_EVENTS (default 10,000) are written, each one by one insert into
// "Event" in its own small transaction (the fan-out trigger adds its delivery job
// there, as for any change). The service, started as `npm start` starts it, with
// its in-process worker, delivers them to one subscription on a receiver here.
// Printed: deliveries per second from the first commit to the last delivery, and
// the latency from each event's commit to its arrival (p50, p99, max).
//
//   DATABASE_URL           a PostgreSQL server to use (database bp_bench_webhooks is
//                          created and dropped); unset: embedded PostgreSQL
//   BENCH_WEBHOOK_EVENTS   events to deliver (default 10000)
//   BENCH_WEBHOOK_RATE     events committed per second (default 1000)
//   BENCH_WEBHOOK_TIMELINE=1  also print p50/p99 per second of commit time
// First: seeding goes through the services, whose modules declare type-graphql types.
import 'reflect-metadata';
import pg from 'pg';
import { newId } from '../src/ids.js';
import {
  cleanup,
  createBenchDatabase,
  cpuTimeMs,
  createBenchOrganization,
  printTable,
  serviceEnv,
  sleep,
  startCommandArguments,
  startReceiver,
  startServer,
} from './harness.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 1_000);
/** Events per producer transaction: RATE / 100 every 10 ms. */
const TICK_MS = 10;
const PRODUCERS = 4;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function printTimeline(timeline: [number, number][]): void {
  const seconds = new Map<number, number[]>();
  for (const [second, latency] of timeline) seconds.set(second, [...(seconds.get(second) ?? []), latency]);
  const rows = [...seconds.entries()]
    .sort(([a], [b]) => a - b)
    .map(([second, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return [
        String(second),
        String(sorted.length),
        percentile(sorted, 50).toFixed(0),
        percentile(sorted, 99).toFixed(0),
      ];
    });
  console.log();
  printTable([['second committed', 'events', 'p50 ms', 'p99 ms'], ...rows]);
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bp_bench_webhooks');
  const organization = await createBenchOrganization(database.url, 'Webhooks', ['admin']);
  const service = await startServer('service', {
    poolSize: 10,
    args: startCommandArguments(),
    env: {
      ...serviceEnv(database.url),
      ...(process.env.WORKER_CONCURRENCY && { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY }),
    },
    readyPath: '/readyz',
  });
  const receiver = await startReceiver();
  const subscribed = await fetch(`${service.url}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${organization.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['contact.created'] }),
  });
  if (subscribed.status !== 201) throw new Error(`subscription: ${subscribed.status} ${await subscribed.text()}`);

  const committedAt = new Map<string, number>();
  let started = 0;
  const latencies: number[] = [];
  /** [second of commit since the start, latency] per delivery, for the timeline. */
  const timeline: [number, number][] = [];
  let duplicates = 0;
  let lastDelivery = 0;
  receiver.onDelivery = (eventId, at) => {
    const committed = committedAt.get(eventId);
    if (committed === undefined) {
      // Arrived before the producer heard its COMMIT answered: latency under a tick.
      committedAt.set(eventId, -1);
      latencies.push(0);
      lastDelivery = at;
      return;
    }
    if (committed < 0) {
      duplicates += 1;
      return;
    }
    latencies.push(at - committed);
    timeline.push([Math.floor((committed - started) / 1000), at - committed]);
    committedAt.set(eventId, -1);
    lastDelivery = at;
  };

  const producers = new pg.Pool({ connectionString: database.url, max: PRODUCERS });
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  console.log(
    `Producing ${EVENTS} contact.created events at ${RATE}/s (${perTick} per transaction every ${TICK_MS} ms), ` +
      `one subscription, the service's in-process worker`,
  );
  const cpuBefore = cpuTimeMs(service.pid);
  started = performance.now();
  const commits: Promise<void>[] = [];
  for (let produced = 0, tick = 0; produced < EVENTS; tick++) {
    const count = Math.min(perTick, EVENTS - produced);
    produced += count;
    const ids = Array.from({ length: count }, () => newId('event'));
    const data = JSON.stringify({ object: { id: 'con_bench', email: 'bench@example.com' } });
    commits.push(
      producers
        .query(
          `insert into "Event" (id, "organizationId", type, data)
           select id, $2, 'contact.created', $3::jsonb from unnest($1::text[]) as id`,
          [ids, organization.id, data],
        )
        .then(() => {
          const now = performance.now();
          for (const id of ids) if (!committedAt.has(id)) committedAt.set(id, now);
        }),
    );
    // Keep the schedule: wait until this tick's time, not a fixed sleep after the work.
    const due = started + (tick + 1) * TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(commits);
  const producedIn = (performance.now() - started) / 1000;
  for (const deadline = Date.now() + 120_000; latencies.length < EVENTS && Date.now() < deadline;) await sleep(100);
  await producers.end();
  const cpuAfter = cpuTimeMs(service.pid);
  const cpuPerDelivery =
    cpuBefore === undefined || cpuAfter === undefined ? 'n/a' : ((cpuAfter - cpuBefore) / latencies.length).toFixed(2);

  const sorted = [...latencies].sort((a, b) => a - b);
  const seconds = (lastDelivery - started) / 1000;
  console.log(`committed in ${producedIn.toFixed(1)} s (${(EVENTS / producedIn).toFixed(0)} events/s)\n`);
  printTable([
    ['delivered', 'duplicates', 'deliveries/s (end to end)', 'p50 ms', 'p99 ms', 'max ms', 'CPU ms/delivery'],
    [
      `${latencies.length} of ${EVENTS}`,
      String(duplicates),
      (latencies.length / seconds).toFixed(0),
      percentile(sorted, 50).toFixed(0),
      percentile(sorted, 99).toFixed(0),
      (sorted.at(-1) ?? NaN).toFixed(0),
      cpuPerDelivery,
    ],
  ]);
  console.log('latency: from the commit of the event to its arrival at the receiver');
  console.log("CPU: the service process's (API and in-process worker), user + system");
  if (process.env.BENCH_WEBHOOK_TIMELINE === '1') printTimeline(timeline);
  if (latencies.length < EVENTS) console.log(`\nWARNING: ${EVENTS - latencies.length} events not delivered in 120 s`);
}

try {
  await main();
} finally {
  await cleanup();
}
