// Load from wrk (Debian's package `wrk`), a C load generator run as a process of
// its own, so generating load costs little and shows in no server's CPU. A Lua
// script sets the request (a POST body gets a unique email per request: a run
// nonce, the thread's number and a counter) and prints wrk's summary as one JSON
// line, which is parsed here.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const WRK = process.env.BENCH_WRK ?? '/usr/bin/wrk';

/** Exits with one clear line when wrk is not installed: the bench has no other load generator. */
export function requireWrk(): void {
  try {
    accessSync(WRK, constants.X_OK);
  } catch {
    console.error(`npm run bench needs wrk (${WRK} not found): apt-get install wrk`);
    process.exit(1);
  }
}

export interface WrkLoad {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A body in which `[<id>]` becomes a value unique to each request. */
  body?: string;
  connections: number;
  threads: number;
  durationS: number;
  /** Run wrk under `taskset -c <cpus>`; unset: wherever the scheduler puts it. */
  cpus?: string;
}

export interface WrkResult {
  requests: number;
  durationS: number;
  reqPerSecond: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  /** Answers with a status of 400 or above (wrk counts those as status errors). */
  non2xx: number;
  /** Connect, read and write errors and timeouts. */
  errors: number;
}

const MARK = 'WRK_SUMMARY ';

const luaString = (value: string) => JSON.stringify(value); // a JSON string is a valid Lua string literal here

function script({ method, headers, body }: WrkLoad): string {
  const [before, after] = (body ?? '').split('[<id>]');
  const nonce = randomBytes(4).toString('hex');
  return `
wrk.method = ${luaString(method)}
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
  .join('\n')}
local threads = 0
function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end
local counter = 0
${
  body === undefined
    ? ''
    : `function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, ${luaString(before!)} .. "${nonce}-" .. thread_id .. "-" .. counter .. ${luaString(after ?? '')})
end`
}
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("${MARK}{\\"requests\\":%d,\\"durationUs\\":%d,\\"p50Us\\":%d,\\"p99Us\\":%d,\\"status\\":%d,\\"errors\\":%d}\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write + e.timeout))
end
`;
}

/** Runs wrk once and returns its summary; throws if wrk fails or prints no summary. */
export async function runWrk(load: WrkLoad): Promise<WrkResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-'));
  const scriptPath = path.join(dir, 'load.lua');
  writeFileSync(scriptPath, script(load));
  const args = [
    `-t${load.threads}`,
    `-c${load.connections}`,
    `-d${load.durationS}s`,
    '--timeout',
    '10s',
    '--latency',
    '-s',
    scriptPath,
    load.url,
  ];
  const [command, commandArgs] = load.cpus ? ['taskset', ['-c', load.cpus, WRK, ...args]] : [WRK, args];
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`wrk exited with ${code}: ${stderr || stdout}`)),
      );
    });
    const line = output.split('\n').find((text) => text.startsWith(MARK));
    if (!line) throw new Error(`wrk printed no summary:\n${output}`);
    const summary = JSON.parse(line.slice(MARK.length)) as Record<
      'requests' | 'durationUs' | 'p50Us' | 'p99Us' | 'status' | 'errors',
      number
    >;
    const durationS = summary.durationUs / 1e6;
    return {
      requests: summary.requests,
      durationS,
      reqPerSecond: summary.requests / durationS,
      p50: summary.p50Us / 1000,
      p99: summary.p99Us / 1000,
      non2xx: summary.status,
      errors: summary.errors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
