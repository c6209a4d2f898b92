// /docs: the API reference, /v1/openapi.json rendered by Redoc in the browser.
// Redoc's standalone bundle is served from node_modules by this server (no CDN:
// the page makes no request to another origin), with the script that starts it.
// GET only; anything else falls through to the service's 404 envelope.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import express, { type Request, type Response, type Router } from 'express';
import { INIT_SCRIPT } from './init.js';
import { docsPage } from './page.js';

/**
 * No inline script, scripts from this origin only. Redoc's styled-components
 * write <style> elements, hence 'unsafe-inline' for styles (docs/decisions.md);
 * its search index runs in a Worker it makes from a blob: URL.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  'worker-src blob:',
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

interface Asset {
  name: string;
  body: Buffer;
}

/** A file named by a hash of its content, so it can be cached for a year. */
function asset(base: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { name: `${base}.${hash}.js`, body };
}

/**
 * Redoc's sidebar shows a logo from its CDN; the page fetches nothing from
 * elsewhere (and the CSP would refuse it), so the bundle names an empty image instead.
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const NO_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

let assets: Promise<Asset[]> | undefined;

function loadAssets(): Promise<Asset[]> {
  const require = createRequire(import.meta.url);
  assets ??= readFile(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').then((redoc) => [
    asset('redoc.standalone', Buffer.from(redoc.replaceAll(REDOC_LOGO, NO_IMAGE))),
    asset('init', Buffer.from(INIT_SCRIPT)),
  ]);
  return assets;
}

export function docsRouter(): Router {
  const router = express.Router();

  router.get('/assets/:name', async (req: Request, res: Response) => {
    const found = (await loadAssets()).find((candidate) => candidate.name === req.params.name);
    if (!found) return void res.status(404).type('text/plain').send('Not found');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type('application/javascript').send(found.body);
  });

  router.get('/', async (_req: Request, res: Response) => {
    const [redoc, init] = await loadAssets();
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(docsPage({ bundle: redoc!.name, init: init!.name }));
  });

  return router;
}
