// What a compiled copy of src/ was compiled from: a SHA-256 over every file under
// src/ and the compiler settings, written to <dir>/.source-hash when it is built
// and checked before it runs, so compiled code older than the sources is never
// served. dist/: `npm run build`, checked by `npm run start:prod`
// (scripts/start-compiled.mjs); .build/: `npm start`'s own (scripts/start.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');
const STAMP_FILE = '.source-hash';
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json'];

/** The files under `entry` (relative to ROOT), in a stable order. */
function* files(entry) {
  const stat = statSync(path.join(ROOT, entry), { throwIfNoEntry: false });
  if (stat?.isDirectory()) {
    for (const name of readdirSync(path.join(ROOT, entry)).sort()) yield* files(path.join(entry, name));
  } else if (stat?.isFile()) {
    yield entry;
  }
}

/** undefined when there are no sources (a deployment that ships dist/ alone). */
export function sourceHash() {
  if (!existsSync(path.join(ROOT, 'src'))) return undefined;
  const hash = createHash('sha256');
  for (const entry of INPUTS.flatMap((input) => [...files(input)])) {
    hash
      .update(`${entry}\0`)
      .update(readFileSync(path.join(ROOT, entry)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** `hash`: the sources' hash taken before compiling (sources changed meanwhile then read as stale). */
export function writeStamp(dir = DIST, hash = sourceHash()) {
  writeFileSync(path.join(dir, STAMP_FILE), `${hash}\n`);
}

/** Why the compiled copy in `dir` must not be served, or undefined when it may. */
export function staleReason(dir = DIST) {
  const name = `${path.relative(ROOT, dir)}/`;
  if (!existsSync(path.join(dir, 'main.js'))) return `${name} holds no build`;
  const current = sourceHash();
  if (current === undefined) return undefined;
  const stamp = path.join(dir, STAMP_FILE);
  const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  return built === current ? undefined : `${name} was compiled from other sources than src/ holds now`;
}

// `clean` before tsc: no file of a deleted source stays in dist/; `write` after it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'clean') rmSync(DIST, { recursive: true, force: true });
  if (process.argv[2] === 'write') writeStamp();
}
