// The dashboard's browser code (client/), bundled by esbuild in this process the
// first time a page asks for it: no build step to forget, no generated files in
// the repository, and what runs is always the source next to it. The bundle is
// kept in memory and served under a name carrying its hash, so browsers may
// cache it for good and a new bundle is a new URL.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hashedAsset, madeOnce, type HashedAsset } from '../http/hashed-assets.js';

export interface DashboardBundle {
  /** The URL path of the script and the stylesheet, under /dashboard/assets/. */
  script: string;
  stylesheet: string;
  assets: HashedAsset[];
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
  // esbuild's API (and the esbuild process it starts) only once a page asks for the bundle.
  const { build } = await import('esbuild');
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
  const assets = result.outputFiles.map((file) => {
    const extension = file.path.slice(file.path.lastIndexOf('.'));
    return hashedAsset('app', extension, Buffer.from(file.contents), CONTENT_TYPES[extension] ?? 'text/plain');
  });
  const named = (extension: string) => assets.find((asset) => asset.name.endsWith(extension))?.name ?? '';
  const [script, stylesheet] = [named('.js'), named('.css')];
  return { script, stylesheet, assets };
}

/** The bundle, built once per process (a failed build is tried again on the next request). */
export const dashboardBundle = madeOnce(bundle);
