// The dashboard's browser code (client/), bundled by esbuild in this process the
// first time a page asks for it: no build step to forget, no generated files in
// the repository, and what runs is always the source next to it. The bundle is
// kept in memory and served under a name carrying its hash, so browsers may
// cache it for good and a new bundle is a new URL.
import { createHash } from 'node:crypto';
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

const ENTRY = fileURLToPath(new URL('./client/main.tsx', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

async function bundle(): Promise<DashboardBundle> {
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
