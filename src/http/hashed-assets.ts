// Files served under a name carrying a hash of their content (the dashboard's
// bundle, the API reference's scripts): browsers may keep them for a year, and a
// changed file is a new URL. Each set is made once per process, on first use,
// and compressed then, once: a browser that takes gzip (every one) is sent that.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';

export interface HashedAsset {
  /** `base.<hash><extension>`: the last segment of its URL. */
  name: string;
  body: Buffer;
  /** The body gzipped (level 9: made once, sent many times). */
  gzipped: Buffer;
  contentType: string;
}

export function hashedAsset(base: string, extension: string, body: Buffer, contentType: string): HashedAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { name: `${base}.${hash}${extension}`, body, gzipped: gzipSync(body, { level: 9 }), contentType };
}

/** `make`'s promise, made on the first call and kept; made again after it failed. */
export function madeOnce<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}

/** GET `/:name`: the asset of that name (gzipped when the browser takes it), cached for a year; 404 for any other name. */
export function serveHashedAssets(assets: () => Promise<readonly HashedAsset[]>): RequestHandler {
  return async (req: Request, res: Response) => {
    const asset = (await assets()).find((candidate) => candidate.name === req.params.name);
    if (!asset) return void res.status(404).type('text/plain').send('Not found');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.type(asset.contentType).send(gzip ? asset.gzipped : asset.body);
  };
}
