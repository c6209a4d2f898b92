// What dist/ was compiled from: a SHA-256 over every file under src/ and the
// compiler settings, written to dist/.source-hash by `npm run build` and checked
// by `npm run start:prod` (scripts/start-compiled.mjs), so compiled code older
// than the sources is never served.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.source-hash');
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

export function writeStamp() {
  writeFileSync(STAMP, `${sourceHash()}\n`);
}

/** Why dist/ must not be served, or undefined when it may. */
export function staleReason() {
  if (!existsSync(path.join(DIST, 'main.js'))) return 'dist/ holds no build';
  const current = sourceHash();
  if (current === undefined) return undefined;
  const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
  return built === current ? undefined : 'dist/ was compiled from other sources than src/ holds now';
}

// `clean` before tsc: no file of a deleted source stays in dist/; `write` after it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'clean') rmSync(DIST, { recursive: true, force: true });
  if (process.argv[2] === 'write') writeStamp();
}
