// The minimal baseline of `npm run bench`: node:http and the work of work.ts,
// nothing else. Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE.
import http from 'node:http';
import {
  BODY_LIMIT_BYTES,
  HttpError,
  authenticate,
  createContact,
  jsonObject,
  listContacts,
  listDeals,
  pool,
} from './work.js';

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
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
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  if (url.pathname === '/v1/crm/deals') {
    if (req.method !== 'GET') throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here`);
    const key = await authenticate(req.headers.authorization, 'crm:read');
    return send(res, 200, await listDeals(key.organizationId, url.searchParams));
  }
  if (url.pathname !== '/v1/crm/contacts') throw new HttpError(404, 'NOT_FOUND', `No route for ${url.pathname}`);
  if (req.method === 'GET') {
    const key = await authenticate(req.headers.authorization, 'crm:read');
    return send(res, 200, await listContacts(key.organizationId, url.searchParams));
  }
  if (req.method === 'POST') {
    const key = await authenticate(req.headers.authorization, 'crm:write');
    return send(res, 201, await createContact(key.organizationId, jsonObject(await readBody(req))));
  }
  throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here`);
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
