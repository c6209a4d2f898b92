// Request bodies: JSON only (415 otherwise), at most BODY_LIMIT_BYTES (413),
// parsed strictly (400 for malformed JSON). Every transport reads bodies here.
//
// Content-Encoding: gzip, deflate and br bodies are decoded (body-parser's
// inflate), and the limit applies to the decoded size, so a decompression bomb
// stops at BODY_LIMIT_BYTES of output; the limit also applies to the bytes
// sent. Any other encoding is 415, on every Node version (body-parser would
// decode zstd where Node can).
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import express from 'express';
import type { Handler, HttpRequest } from './exchange.js';
import { DomainError } from '../errors.js';

export const SUPPORTED_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

function isJson(req: IncomingMessage): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '');
}

const hasBody = (req: IncomingMessage) =>
  Number(req.headers['content-length'] ?? 0) > 0 || !!req.headers['transfer-encoding'];

export const bodyTooLarge = (limitBytes: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `The request body must be at most ${limitBytes} bytes`);

/**
 * On every path, before routing and authentication: a declared Content-Length
 * above the limit is 413 at once (waiting for a body we would refuse holds the
 * connection for as long as the client likes), and an encoding we do not decode
 * is 415. The connection is closed after a 413, as its unread body cannot be skipped.
 */
export function bodyGuard(limitBytes: number, largerFor?: (req: HttpRequest) => number | undefined): Handler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    // An upload's route (POST /v1/imports) takes its own limit, and checks it again as it reads.
    const limit = largerFor?.(req) ?? limitBytes;
    if (declared > limit) {
      res.setHeader('Connection', 'close');
      return next(bodyTooLarge(limit));
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (hasBody(req) && encoding !== 'identity' && !(SUPPORTED_ENCODINGS as readonly string[]).includes(encoding)) {
      return next(
        new DomainError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Content-Encoding must be one of ${SUPPORTED_ENCODINGS.join(', ')} (or none)`,
          'Content-Encoding',
        ),
      );
    }
    next();
  };
}

/** Parses the JSON body into req.body; throws DomainError (via toDomainError for parser errors). */
export function jsonBodyReader(limitBytes: number): (req: HttpRequest, res: ServerResponse) => Promise<void> {
  // Not strict: "x", 123 and null are JSON, and the route says they are not an object.
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return async (req, res) => {
    if (hasBody(req) && !isJson(req)) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
    }
    await new Promise<void>((resolve, reject) =>
      parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
    );
  };
}

const DECODERS = {
  gzip: () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
} as const;

/**
 * An uploaded file's bytes, decoded (gzip, deflate, br), as they arrive; a
 * declared Content-Length over `limitBytes` is a 413 before anything is read.
 * The reader counts the decoded bytes against its own limit.
 */
export async function* uploadedBody(req: HttpRequest, limitBytes: number): AsyncGenerator<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limitBytes) throw bodyTooLarge(limitBytes);
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding as keyof typeof DECODERS] : undefined;
  const source: AsyncIterable<Buffer> = decoder ? req.pipe(decoder()) : req;
  try {
    for await (const piece of source) yield piece;
  } catch (error) {
    if (decoder && (error as { code?: string }).code?.startsWith('Z_')) {
      throw new DomainError('VALIDATION_ERROR', `The body is not valid ${encoding}`, 'Content-Encoding');
    }
    throw error;
  }
}
