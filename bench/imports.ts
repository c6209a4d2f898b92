// npm run bench:imports [-- --rows 100000] [--dry-run] [--cpu-prof]
// A CSV of contacts (default 100,000 rows, ~6 MB) posted to POST /v1/imports of the
// service as `npm start` runs it (with WORKER=off), applied by a worker process of its
// own (`npm run worker`), as several processes run in production. Prints the rows a
// second of the commit (rowsProcessed over time, from the first batch to completion),
// the worker's memory (VmRSS sampled through the run, VmHWM its peak) and
// /proc/loadavg before and after: the machine is shared, say the load with the number.
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  cleanup,
  cleanups,
  createBenchDatabase,
  createBenchOrganization,
  ROOT,
  serviceEnv,
  sleep,
  startCommandArguments,
  startServer,
  stopChild,
} from './harness.js';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const ROWS = Number(argument('rows') ?? 100_000);
const DRY_RUN = process.argv.includes('--dry-run');
const CPU_PROF = process.argv.includes('--cpu-prof');

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();

/** VmRSS and VmHWM of a process, in MiB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: Math.round(kib('VmRSS')), peak: Math.round(kib('VmHWM')) };
}

function contactsCsv(rows: number): string {
  const lines = ['email,firstName,lastName,company,phone,tags'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `bench-${i}@example.test,First${i},Last${i},Company ${i % 500},'+1 555 ${String(i).padStart(7, '0')},"[""t${i % 9}""]"`,
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** The commit's rate over each fifth of the file (from the samples around its bounds): does it hold as the tables grow? */
function fifths(progress: { at: number; rows: number }[], rows: number): number[] {
  const when = (target: number) => progress.find((sample) => sample.rows >= target);
  const rates: number[] = [];
  for (let fifth = 0; fifth < 5; fifth++) {
    const [from, to] = [when(Math.max(1, (rows * fifth) / 5)), when((rows * (fifth + 1)) / 5)];
    if (from && to && to.at > from.at) rates.push(Math.round((to.rows - from.rows) / ((to.at - from.at) / 1000)));
  }
  return rates;
}

async function main() {
  console.log(`loadavg before: ${loadavg()}`);
  const { url, where } = await createBenchDatabase('bench_imports');
  const { key } = await createBenchOrganization(url, 'Imports', ['crm:read', 'crm:write']);
  const env = serviceEnv(url);
  const api = await startServer('api', {
    args: startCommandArguments(),
    env: { ...env, WORKER: 'off', IMPORT_MAX_BYTES: String(200 * 1024 * 1024) },
    readyPath: '/healthz',
    poolSize: 10,
  });
  const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, '.data/bench/profile-imports')}`] : [];
  const worker = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/jobs/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(() => stopChild(worker));
  await sleep(3_000);
  const idle = memoryOf(worker.pid!);

  const file = contactsCsv(ROWS);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'text/csv' };
  const posted = await fetch(`${api.url}/v1/imports?resource=contacts${DRY_RUN ? '&dryRun=true' : ''}`, {
    method: 'POST',
    headers,
    body: file,
  });
  const created = (await posted.json()) as { id: string; status: string };
  if (posted.status !== 202) throw new Error(`POST /v1/imports answered ${posted.status}: ${JSON.stringify(created)}`);
  console.log(`posted ${ROWS} rows (${(file.length / 1e6).toFixed(1)} MB) to ${where}: ${created.id}`);

  let first: { at: number; rows: number } | undefined;
  const samples: number[] = [];
  const progress: { at: number; rows: number }[] = [];
  let shown: Record<string, unknown>;
  for (;;) {
    await sleep(500);
    const res = await fetch(`${api.url}/v1/imports/${created.id}`, { headers });
    shown = (await res.json()) as Record<string, unknown>;
    samples.push(memoryOf(worker.pid!).rss);
    const processed = shown.rowsProcessed as number;
    progress.push({ at: performance.now(), rows: processed });
    if (!first && processed > 0) first = { at: performance.now(), rows: processed };
    if (shown.status === 'completed' || shown.status === 'failed') break;
  }
  const end = performance.now();
  const after = memoryOf(worker.pid!);
  const rate = first ? (ROWS - first.rows) / ((end - first.at) / 1000) : NaN;
  console.log(
    `import ${shown.status}: created ${String(shown.rowsCreated)}, updated ${String(shown.rowsUpdated)}, ` +
      `refused ${String(shown.rowsRefused)}${DRY_RUN ? ' (dry run: nothing written)' : ''}`,
  );
  console.log(`commit: ${Math.round(rate)} rows/s (rowsProcessed from the first batch seen to completion)`);
  console.log(`commit by fifths of the file, rows/s: ${fifths(progress, ROWS).join(', ')}`);
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(
    `worker memory, MiB: idle RSS ${idle.rss}; RSS during the run min ${sorted[0]}, median ` +
      `${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)} (${samples.length} samples); ` +
      `peak (VmHWM) ${after.peak}; RSS after ${after.rss}`,
  );
  console.log(`loadavg after: ${loadavg()}`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => void cleanup());
