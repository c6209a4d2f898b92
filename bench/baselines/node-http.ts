// The minimal baseline of `npm run bench`: node:http and the work of work.ts,
// nothing else: the key looked up in memory, a list's page and its total, a
// create's row and event in one statement, the same JSON as the service.
// Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE.
import http from 'node:http';
import { BODY_LIMIT_BYTES, CREATES, HttpError, LISTS, authenticate, jsonObject, listPage, pool } from './work.js';

/** The body as text, read with plain listeners (an async iterator costs a promise per chunk). */
function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'));
      } else chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  if (pathname === '/healthz') return send(res, 200, { status: 'ok' });
  const list = req.method === 'GET' ? LISTS[pathname] : undefined;
  if (list) {
    const key = await authenticate(req.headers.authorization, list.scope);
    const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
    return send(res, 200, await listPage(list, key.organizationId, query));
  }
  const create = req.method === 'POST' ? CREATES[pathname] : undefined;
  if (create) {
    const key = await authenticate(req.headers.authorization, create.scope);
    return send(res, 201, await create.create(key.organizationId, jsonObject(await readBody(req))));
  }
  if (LISTS[pathname] || CREATES[pathname]) {
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here`);
  }
  throw new HttpError(404, 'NOT_FOUND', `No route for ${pathname}`);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    if (!(error instanceof HttpError)) console.error(error);
    const { status, code, message } =
      error instanceof HttpError ? error : new HttpError(500, 'INTERNAL_ERROR', 'An internal error occurred');
    if (res.headersSent) res.end();
    else send(res, status, { error: { code, message } });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3001), '127.0.0.1');

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
