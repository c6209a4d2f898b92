// npm start: the service as compiled JavaScript, with no TypeScript loader in the
// process (tsx held 35 to 50 MB and a second thread for the whole run: docs/decisions.md,
// "A lighter process"). The first start after src/ changed compiles it to .build/
// (tsc without its type check, which is what tsx did: `npm run typecheck` and
// `npm test` check; about 4 s of CPU), then every start runs .build/<entry> in this
// process. dist/ stays `npm run build`'s, for start:prod, and is never touched here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sourceHash, staleReason, writeStamp } from './source-stamp.mjs';

const BUILD = path.join(ROOT, '.build');
/** Held (a directory: made atomically) while one start compiles; the others wait, then find .build/ fresh. */
const LOCK = path.join(ROOT, '.build.lock');
const LOCK_WAIT_MS = 5 * 60_000;

const entry = process.argv[2] ?? 'main.js';
if (staleReason(BUILD)) {
  withLock(() => {
    // Checked again under the lock: another start may have compiled meanwhile.
    const reason = staleReason(BUILD);
    if (reason) compile(reason);
  });
}
await import(pathToFileURL(path.join(BUILD, entry)).href);

function compile(reason) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    fail('npm start compiles src/ with TypeScript, which is not installed: run npm install');
  }
  process.stderr.write(`${reason}: compiling src/ to .build/ (a few seconds, once after each change)\n`);
  // Left by a start that was killed while it compiled (this one holds the lock).
  for (const name of readdirSync(ROOT))
    if (/^\.build\.\d+$/.test(name)) rmSync(path.join(ROOT, name), { recursive: true });
  const staging = `${BUILD}.${process.pid}`;
  const hash = sourceHash(); // before compiling: a source changed meanwhile leaves .build/ stale
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--outDir', staging], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    fail(`compiling src/ failed (tsc exited with ${result.status ?? result.signal}): see above`);
  }
  writeStamp(staging, hash);
  // Swapped in whole: a process started from the old .build/ keeps the files it loaded.
  const old = `${BUILD}.${process.pid}.old`;
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(BUILD, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  renameSync(staging, BUILD);
  rmSync(old, { recursive: true, force: true });
}

function withLock(work) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (!holderAlive()) {
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) fail(`another npm start has been compiling src/ for 5 minutes (${LOCK})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
    work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The lock's holder is still running (a lock whose pid is not written yet is held for 10 s). */
function holderAlive() {
  let pid;
  try {
    pid = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
