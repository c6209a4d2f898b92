// npm run bench:failover: losing the PostgreSQL primary, losing nothing. Sets up a
// pg_auto_failover monitor and two nodes (synchronous replication) on loopback,
// runs the service (API and worker) on the formation's multi-host URL with a
// webhook receiver, sends creates at a steady rate through a planned switchover
// and a `kill -9` of the primary's postmaster (bench/failover-scenario.ts), and
// prints per failover the requests refused and for how long, then whether every
// acknowledged create, its one event and its delivery are there.
//
//   BENCH_FAILOVER_RATE       creates per second (default 50)
//   BENCH_FAILOVER_SETTLE_S   seconds of steady load before each failover and after the last (default 25)
//
// Needs Debian's postgresql-15-auto-failover and pg-auto-failover-cli; refuses without them.
import { cpus, loadavg } from 'node:os';
import { findPgAutoFailover, runFailoverScenario } from './failover-scenario.js';

const RATE = Number(process.env.BENCH_FAILOVER_RATE ?? 50);
const SETTLE_S = Number(process.env.BENCH_FAILOVER_SETTLE_S ?? 25);
/** The issue's targets: unavailability per kind of failover, and nothing lost. */
const TARGET_MS = { switchover: 5_000, 'kill -9': 30_000 } as const;

const tools = findPgAutoFailover();
if ('missing' in tools) {
  console.error(`bench:failover: ${tools.missing}`);
  process.exit(2);
}

const started = Date.now();
const result = await runFailoverScenario({
  rate: RATE,
  settleS: SETTLE_S,
  log: (line) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}`),
});
const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(' ');
console.log(`\n${result.postgres}; ${RATE} creates/s; load average ${load} (${cpus().length} CPUs)`);
console.log(`${result.sent} creates sent, ${result.created} answered 201\n`);
const rows = [
  [
    'failover',
    'primary before → after',
    'refused',
    'as 503',
    'other failures',
    'unavailable',
    'slowest answer',
    'target',
  ],
  ...result.failovers.map((f) => [
    f.kind,
    `${f.from} → ${f.to}`,
    String(f.refused),
    String(f.refused503),
    f.refusedBetweenS ? `+${f.refusedBetweenS[0].toFixed(1)} … +${f.refusedBetweenS[1].toFixed(1)} s` : '-',
    Object.keys(f.otherFailures).length ? JSON.stringify(f.otherFailures) : '0',
    `${(f.unavailableMs / 1000).toFixed(1)} s`,
    `${(f.slowestMs / 1000).toFixed(1)} s`,
    `< ${TARGET_MS[f.kind] / 1000} s`,
  ]),
];
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
for (const f of result.failovers) console.log(`${f.kind}: 503s by message ${JSON.stringify(f.reasons503)}`);
console.log(
  'unavailable: the longest span without a successful create (last 201 sent before → first 201 answered after)',
);
console.log(`
acknowledged creates lost:            ${result.lostCreates} of ${result.created}
acknowledged creates without event:   ${result.eventsMissing}
contacts with more than one event:    ${result.eventsDuplicated}
committed, answer lost (allowed):     ${result.committedWithoutAnswer}
events:                               ${result.events}
events never delivered:               ${result.undelivered}
duplicate deliveries:                 ${result.duplicateDeliveries} (away from a failover: ${result.duplicatesAwayFromFailovers})
service process:                      ${result.serviceExited ? `exited (${result.serviceExited})` : 'ran throughout'}`);

const missed = [
  ...result.failovers
    .filter((f) => f.unavailableMs >= TARGET_MS[f.kind] || Object.keys(f.otherFailures).length)
    .map(
      (f) => `${f.kind}: ${(f.unavailableMs / 1000).toFixed(1)} s, other failures ${JSON.stringify(f.otherFailures)}`,
    ),
  ...(result.lostCreates || result.eventsMissing || result.eventsDuplicated || result.undelivered
    ? ['something acknowledged was lost']
    : []),
  ...(result.duplicatesAwayFromFailovers ? ['duplicate deliveries away from a failover'] : []),
  ...(result.serviceExited ? ['the service exited'] : []),
];
if (missed.length) {
  console.log(`\nMISSED: ${missed.join('; ')}`);
  process.exitCode = 1;
} else console.log('\nall targets met');
