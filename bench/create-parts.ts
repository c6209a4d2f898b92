// PostgreSQL's work per create, part by part (issue 28): the kit's own contact
// create statement (the one `POST /v1/crm/contacts` sends, captured from
// kit/store.ts) run in a loop on one connection, each create its own
// transaction as the service commits it, with the parts switched off one more
// at a time: the webhook fan-out trigger, the Change trigger, the count shards'
// trigger, the search index, then the event itself, leaving the row alone. The
// figure is the backend's own CPU per create (user + system of its process, from
// /proc: PostgreSQL must run on this machine) with its wall time and WAL bytes;
// a part's cost is the difference from the row above. Variants alternate, each
// measured BENCH_ROUNDS times, and the round of least CPU is kept.
//
//   npx tsx bench/create-parts.ts
//   DATABASE_URL       a PostgreSQL server on this machine (database bp_bench_parts is
//                      created and dropped); unset: embedded PostgreSQL
//   BENCH_DURATION_S   seconds per variant and round (default 3)
//   BENCH_ROUNDS       rounds (default 3)
// First: seeding goes through the services, whose modules declare type-graphql types.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { SYSTEM_ACTOR } from '../src/auth/principal.js';
import { contacts } from '../src/graphql/crm/contact/index.js';
import { insertRecord, type Queryable } from '../src/graphql/kit/store.js';
import { declaredTable, searchColumnSql, searchIndexSql } from '../src/graphql/kit/declared-table.js';
import { newIdWith } from '../src/ids.js';
import { cleanup, createBenchDatabase, createBenchOrganization, printTable } from './harness.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONTACTS = 10_000;

/** The statement the kit sends for a contact create (with its event, or without), and its values. */
async function kitStatement(organizationId: string, withEvent: boolean): Promise<pg.QueryConfig> {
  let captured: pg.QueryConfig | undefined;
  const capture = {
    query: (config: pg.QueryConfig) => {
      captured = config;
      return Promise.resolve({ rows: [] });
    },
  } as unknown as Queryable;
  await insertRecord(capture, contacts.resource, {
    organizationId,
    values: {
      id: newIdWith('con'),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'parts@example.com',
      company: 'Analytical Engines',
      phone: null,
      tags: ['bench', 'vip'],
      paymentTermsDays: null,
    },
    events: withEvent ? [{ type: contacts.resource.events!.created!.type }] : [],
    actor: SYSTEM_ACTOR,
  });
  return captured!;
}

interface Variant {
  name: string;
  /** What is switched off, run before the variant's round (after everything was switched on again). */
  off: string[];
  withEvent: boolean;
}

const FAN_OUT = `alter table "Event" disable trigger "Event_webhook_fan_out"`;
const CHANGE = `alter table "Event" disable trigger "Event_change"`;
const COUNTS = `alter table "Contact" disable trigger "Contact_count_inserted"`;
const SEARCH = `drop index "Contact_search_idx"; alter table "Contact" drop column "searchText"`;
const VARIANTS: Variant[] = [
  { name: 'row + event, every trigger and index (as served)', off: [], withEvent: true },
  { name: '- webhook fan-out trigger (no subscriber)', off: [FAN_OUT], withEvent: true },
  { name: '- Change trigger', off: [FAN_OUT, CHANGE], withEvent: true },
  { name: '- count shards trigger', off: [FAN_OUT, CHANGE, COUNTS], withEvent: true },
  { name: '- search (lowered column, trigram GIN)', off: [FAN_OUT, CHANGE, COUNTS, SEARCH], withEvent: true },
  { name: '- the event row: the row alone', off: [FAN_OUT, CHANGE, COUNTS, SEARCH], withEvent: false },
];

async function switchEverythingOn(client: pg.Client): Promise<void> {
  await client.query(`alter table "Event" enable trigger all`);
  await client.query(`alter table "Contact" enable trigger all`);
  const { rows } = await client.query(`select 1 from pg_indexes where indexname = 'Contact_search_idx'`);
  if (!rows.length) {
    // As the migration made them (search_depth_lowered_search).
    const [search] = declaredTable(contacts.resource).searches;
    await client.query(searchColumnSql('Contact', search!));
    await client.query(searchIndexSql('Contact', search!));
  }
}

function backendCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface Result {
  creates: number;
  cpuMs: number;
  wallMs: number;
  walBytes: number;
}

/** Creates for `seconds` on `worker` (its own backend), each its own transaction; the backend's CPU and WAL. */
async function measure(
  worker: pg.Client,
  pid: number,
  statement: pg.QueryConfig,
  seconds = DURATION_S,
): Promise<Result> {
  const lsn = async () =>
    BigInt((await worker.query<{ at: string }>(`select pg_current_wal_insert_lsn() - '0/0' as at`)).rows[0]!.at);
  const walBefore = await lsn();
  const cpuBefore = backendCpuMs(pid);
  const started = performance.now();
  let creates = 0;
  const values = [...statement.values!];
  const emailAt = values.indexOf('parts@example.com');
  const idAt = values.findIndex((value) => typeof value === 'string' && value.startsWith('con_'));
  const eventAt = values.findIndex((value) => typeof value === 'string' && value.startsWith('evt_'));
  while (performance.now() - started < seconds * 1000) {
    values[emailAt] = `parts-${newIdWith('con').toLowerCase()}@example.com`;
    values[idAt] = newIdWith('con');
    if (eventAt >= 0) values[eventAt] = newIdWith('evt');
    await worker.query({ ...statement, values });
    creates++;
  }
  const wallMs = performance.now() - started;
  const cpuMs = backendCpuMs(pid) - cpuBefore;
  const walBytes = Number((await lsn()) - walBefore);
  return { creates, cpuMs, wallMs, walBytes };
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bp_bench_parts');
  const organization = await createBenchOrganization(database.url, 'Parts', ['crm:write']);
  const admin = new pg.Client({ connectionString: database.url });
  const worker = new pg.Client({ connectionString: database.url });
  await Promise.all([admin.connect(), worker.connect()]);
  try {
    await admin.query(
      `insert into "Contact" (id, "organizationId", "firstName", "lastName", email, company, phone, tags, "createdAt", "updatedAt")
       select 'con_seed' || lpad(i::text, 22, '0'), $1, 'First' || i, 'Last' || i, 'contact' || i || '@seed.example',
              'Company ' || (i % 100), '+1 555 ' || lpad(i::text, 7, '0'), array['seed', 'tag' || (i % 10)], now(), now()
       from generate_series(1, $2::int) as i`,
      [organization.id, CONTACTS],
    );
    await admin.query('analyze');
    const pid = (await worker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const statements = {
      true: await kitStatement(organization.id, true),
      false: await kitStatement(organization.id, false),
    };
    console.log(`PostgreSQL ${database.where}; ${CONTACTS} contacts; ${ROUNDS} rounds x ${DURATION_S} s per variant`);
    const best = new Map<string, Result>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const variant of VARIANTS) {
        await switchEverythingOn(admin);
        for (const off of variant.off) await admin.query(off);
        // A first create plans the statement on this connection and warms the caches.
        await measure(worker, pid, statements[`${variant.withEvent}`], 0.5);
        const result = await measure(worker, pid, statements[`${variant.withEvent}`]);
        const perCreate = result.cpuMs / result.creates;
        process.stdout.write(`round ${round}: ${variant.name}: ${(perCreate * 1000).toFixed(0)} µs CPU\n`);
        const kept = best.get(variant.name);
        if (!kept || perCreate < kept.cpuMs / kept.creates) best.set(variant.name, result);
      }
    }
    await switchEverythingOn(admin);
    const rows = [['variant', 'creates', 'backend CPU µs/create', 'part µs', 'wall µs/create', 'WAL bytes/create']];
    let above: number | undefined;
    for (const variant of VARIANTS) {
      const { creates, cpuMs, wallMs, walBytes } = best.get(variant.name)!;
      const cpu = (cpuMs * 1000) / creates;
      rows.push([
        variant.name,
        String(creates),
        cpu.toFixed(0),
        above === undefined ? '' : (above - cpu).toFixed(0),
        ((wallMs * 1000) / creates).toFixed(0),
        (walBytes / creates).toFixed(0),
      ]);
      above = cpu;
    }
    printTable(rows);
    console.log(
      "backend CPU: the creating connection's PostgreSQL process, user + system (/proc, 10 ms ticks), " +
        'per create; part: what the line saves against the line above; wall: per create as the client saw it, ' +
        'commit (WAL flush) included',
    );
  } finally {
    await Promise.all([admin.end(), worker.end()]);
  }
}

try {
  await main();
} finally {
  await cleanup();
}
