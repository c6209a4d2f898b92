// The site's icon: one small SVG (a ledger's stacked bars in the dashboard's
// accent), served at /favicon.ico, where browsers look by default, and at
// /favicon.svg, which every page's head names. Browsers go by the content type,
// not the name, so the .ico path may carry an SVG. Cached for a day: no hashed
// name, since /favicon.ico cannot have one.
import type { Request, Response } from 'express';

export const FAVICON_PATH = '/favicon.svg';

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#0a58ca"/>' +
  '<rect x="7" y="8" width="18" height="4" rx="2" fill="#fff"/>' +
  '<rect x="7" y="14" width="13" height="4" rx="2" fill="#fff" opacity=".85"/>' +
  '<rect x="7" y="20" width="8" height="4" rx="2" fill="#fff" opacity=".7"/>' +
  '</svg>';

export function sendFavicon(_req: Request, res: Response): void {
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.type('image/svg+xml').send(FAVICON_SVG);
}
