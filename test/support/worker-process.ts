// A worker as a process of its own (`npm run worker`: src/jobs/main.ts) on a
// test's database, with its output kept for assertions and its exit awaited.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Spawns the worker with `DATABASE_URL` and `WEBHOOK_SECRET_KEY` (and `env`
 * over them); `nodeOptions` go before the script (e.g. a heap cap).
 */
export function spawnWorkerProcess(options: {
  databaseUrl: string;
  secretKey: string;
  env?: Record<string, string>;
  nodeOptions?: string[];
}): WorkerProcess {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), '--import', 'tsx', 'src/jobs/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? ROOT,
      // Receivers on loopback: local conveniences (src/local-conveniences.ts).
      NODE_ENV: 'test',
      DATABASE_URL: options.databaseUrl,
      WEBHOOK_SECRET_KEY: options.secretKey,
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}
