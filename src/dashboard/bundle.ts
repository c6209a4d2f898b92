// The dashboard's browser code (client/), bundled by esbuild in this process the
// first time a page asks for it: no build step to forget, no generated files in
// the repository, and what runs is always the source next to it. The bundle is
// kept in memory and served under a name carrying its hash, so browsers may
// cache it for good and a new bundle is a new URL.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface Asset {
  body: Buffer;
  contentType: string;
}

export interface DashboardBundle {
  /** The URL path of the script and the stylesheet, under /dashboard/assets/. */
  script: string;
  stylesheet: string;
  assets: Map<string, Asset>;
}

/**
 * The browser code's entry: next to this file when run from src/, and in src/
 * when run compiled from dist/ (tsc leaves the browser code out; start:prod
 * checks that dist/ was built from the sources as they are).
 */
const ENTRY = ['./client/main.tsx', '../../src/dashboard/client/main.tsx']
  .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  .find((candidate) => existsSync(candidate));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

async function bundle(): Promise<DashboardBundle> {
  if (!ENTRY) throw new Error('the dashboard sources (src/dashboard/client) are missing');
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'out',
    logLevel: 'silent',
    legalComments: 'none',
  });
  const assets = new Map<string, Asset>();
  let script = '';
  let stylesheet = '';
  for (const file of result.outputFiles) {
    const extension = file.path.slice(file.path.lastIndexOf('.'));
    const hash = createHash('sha256').update(file.contents).digest('base64url').slice(0, 12);
    const name = `app.${hash}${extension}`;
    assets.set(name, { body: Buffer.from(file.contents), contentType: CONTENT_TYPES[extension] ?? 'text/plain' });
    if (extension === '.js') script = name;
    if (extension === '.css') stylesheet = name;
  }
  return { script, stylesheet, assets };
}

let built: Promise<DashboardBundle> | undefined;

/** The bundle, built once per process (a failed build is tried again on the next request). */
export function dashboardBundle(): Promise<DashboardBundle> {
  built ??= bundle().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}
