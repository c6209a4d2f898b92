// The bare Express 5 baseline of `npm run bench`: the same work as node-http.ts
// (work.ts) behind Express's router and JSON body parser and nothing else, so
// the bench shows what the framework itself costs apart from what we add.
// Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE.
import express, { type NextFunction, type Request, type Response } from 'express';
import { BODY_LIMIT_BYTES, CREATES, HttpError, LISTS, authenticate, listPage, pool, requireObject } from './work.js';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const searchParams = (req: Request) => new URLSearchParams(req.originalUrl.split('?')[1] ?? '');

app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
for (const [path, list] of Object.entries(LISTS)) {
  app.get(path, async (req, res) => {
    const key = await authenticate(req.headers.authorization, list.scope);
    res.json(await listPage(list, key.organizationId, searchParams(req)));
  });
}
for (const [path, { scope, create }] of Object.entries(CREATES)) {
  app.post(path, express.json({ limit: BODY_LIMIT_BYTES }), async (req, res) => {
    const key = await authenticate(req.headers.authorization, scope);
    res.status(201).json(await create(key.organizationId, requireObject(req.body)));
  });
}
app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  if (!(error instanceof HttpError)) console.error(error);
  const { status, code, message } =
    error instanceof HttpError ? error : new HttpError(500, 'INTERNAL_ERROR', 'An internal error occurred');
  res.status(status).json({ error: { code, message } });
});

const server = app.listen(Number(process.env.PORT ?? 3001), '127.0.0.1');
server.keepAliveTimeout = 65_000;

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
