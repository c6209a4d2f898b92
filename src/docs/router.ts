// /docs: the API reference, /v1/openapi.json rendered by Redoc in the browser.
// Redoc's standalone bundle is served from node_modules by this server (no CDN:
// the page makes no request to another origin), with the script that starts it.
// GET only; anything else falls through to the service's 404 envelope.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import express, { type Request, type Response, type Router } from 'express';
import { hashedAsset, madeOnce, serveHashedAssets } from '../http/hashed-assets.js';
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

/**
 * Redoc's sidebar shows a logo from its CDN; the page fetches nothing from
 * elsewhere (and the CSP would refuse it), so the bundle names an empty image instead.
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const NO_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

const JAVASCRIPT = 'application/javascript';

const loadAssets = madeOnce(async () => {
  const redoc = await readFile(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  return [
    hashedAsset('redoc.standalone', '.js', Buffer.from(redoc.replaceAll(REDOC_LOGO, NO_IMAGE)), JAVASCRIPT),
    hashedAsset('init', '.js', Buffer.from(INIT_SCRIPT), JAVASCRIPT),
  ];
});

export function docsRouter(): Router {
  const router = express.Router();

  router.get('/assets/:name', serveHashedAssets(loadAssets));

  router.get('/', async (_req: Request, res: Response) => {
    const [redoc, init] = await loadAssets();
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(docsPage({ bundle: redoc!.name, init: init!.name }));
  });

  return router;
}
