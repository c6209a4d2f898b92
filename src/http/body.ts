// Request bodies: JSON only (415 otherwise), at most BODY_LIMIT_BYTES (413),
// parsed strictly (400 for malformed JSON). Every transport reads bodies here.
import express, { type Request, type Response } from 'express';
import { DomainError } from '../errors.js';

function isJson(req: Request): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '');
}

/** Parses the JSON body into req.body; throws DomainError (via toDomainError for parser errors). */
export function jsonBodyReader(limitBytes: number): (req: Request, res: Response) => Promise<void> {
  const parse = express.json({ limit: limitBytes, strict: true, type: () => true });
  return async (req, res) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if ((length > 0 || req.headers['transfer-encoding']) && !isJson(req)) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
    }
    await new Promise<void>((resolve, reject) =>
      parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
    );
  };
}
