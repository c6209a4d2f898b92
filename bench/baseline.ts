// The baseline of `npm run bench`: the least a real server must do to answer
// GET and POST /v1/crm/contacts and GET /v1/crm/deals like the service does. node:http + pg, the same
// tables and queries, a Bearer key checked by SHA-256 against "ApiKey" (cached in
// memory, as the service caches resolved keys), and the same JSON bodies. Like
// the service's Prisma client, it names its statements so each connection
// prepares them once.
// Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE (default 10).
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { ulid } from 'ulid';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

const KEY_TTL_MS = 60_000;
const BODY_LIMIT_BYTES = 1_048_576;
const COLUMNS = `id, "firstName", "lastName", email, company, phone, tags, "createdAt", "updatedAt"`;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ContactRow {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  company: string | null;
  phone: string | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

interface DealRow {
  id: string;
  title: string;
  /** bigint: node-postgres reads int8 as a string. */
  amount: string;
  currency: string;
  stage: string;
  contactId: string | null;
  /** Read as text: node-postgres would make a date a local-time Date. */
  expectedCloseDate: string | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const DEAL_COLUMNS = `id, title, amount, currency, stage, "contactId", "expectedCloseDate"::text as "expectedCloseDate",
  "closedAt", "createdAt", "updatedAt"`;

const dealOf = (row: DealRow) => ({
  ...row,
  amount: Number(row.amount),
  closedAt: row.closedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const contactOf = (row: ContactRow) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

interface Key {
  organizationId: string;
  scopes: Set<string>;
  loadedAt: number;
}
const keys = new Map<string, Key>();

async function authenticate(authorization: string | undefined, scope: string): Promise<Key> {
  const token = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new HttpError(401, 'UNAUTHORIZED', 'A valid Bearer API key is required');
  const hash = createHash('sha256').update(token).digest('hex');
  let key = keys.get(hash);
  if (!key || Date.now() - key.loadedAt > KEY_TTL_MS) {
    const { rows } = await pool.query<{ organizationId: string; scopes: string[] }>({
      name: 'api_key',
      text: `select "organizationId", scopes from "ApiKey"
             where "keyHash" = $1 and "revokedAt" is null and ("expiresAt" is null or "expiresAt" > now())`,
      values: [hash],
    });
    if (!rows[0]) throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key');
    key = { organizationId: rows[0].organizationId, scopes: new Set(rows[0].scopes), loadedAt: Date.now() };
    keys.set(hash, key);
  }
  if (!key.scopes.has(scope)) throw new HttpError(403, 'FORBIDDEN', `This key lacks the ${scope} scope`);
  return key;
}

function pageParameter(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  const value = raw === null ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new HttpError(400, 'VALIDATION_ERROR', `${name} must be an integer from 1 to ${max}`);
  }
  return value;
}

async function listContacts(organizationId: string, query: URLSearchParams) {
  const page = pageParameter(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const limit = pageParameter(query, 'limit', 50, 100);
  const [rows, count] = await Promise.all([
    pool.query<ContactRow>({
      name: 'contact_page',
      text: `select ${COLUMNS} from "Contact" where "organizationId" = $1 order by "createdAt", id limit $2 offset $3`,
      values: [organizationId, limit, (page - 1) * limit],
    }),
    pool.query<{ total: number }>({
      name: 'contact_count',
      text: `select count(*)::int as total from "Contact" where "organizationId" = $1`,
      values: [organizationId],
    }),
  ]);
  const total = count.rows[0]!.total;
  return { data: rows.rows.map(contactOf), pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
}

async function listDeals(organizationId: string, query: URLSearchParams) {
  const page = pageParameter(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const limit = pageParameter(query, 'limit', 50, 100);
  const [rows, count] = await Promise.all([
    pool.query<DealRow>({
      name: 'deal_page',
      text: `select ${DEAL_COLUMNS} from "Deal" where "organizationId" = $1 order by "createdAt", id limit $2 offset $3`,
      values: [organizationId, limit, (page - 1) * limit],
    }),
    pool.query<{ total: number }>({
      name: 'deal_count',
      text: `select count(*)::int as total from "Deal" where "organizationId" = $1`,
      values: [organizationId],
    }),
  ]);
  const total = count.rows[0]!.total;
  return { data: rows.rows.map(dealOf), pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'VALIDATION_ERROR', 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function optionalText(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new HttpError(400, 'VALIDATION_ERROR', `${field} must be a string`);
  return value.trim();
}

async function createContact(organizationId: string, body: Record<string, unknown>) {
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'email must be a valid email address');
  }
  const tags = body.tags ?? [];
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'tags must be an array of strings');
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<ContactRow>({
      name: 'contact_insert',
      text: `insert into "Contact" (id, "organizationId", email, "firstName", "lastName", company, phone, tags, "updatedAt")
             values ($1, $2, $3, $4, $5, $6, $7, $8, now()) returning ${COLUMNS}`,
      values: [
        `con_${ulid().toLowerCase()}`,
        organizationId,
        email,
        optionalText(body, 'firstName'),
        optionalText(body, 'lastName'),
        optionalText(body, 'company'),
        optionalText(body, 'phone'),
        [...new Set(tags as string[])],
      ],
    });
    const contact = contactOf(rows[0]!);
    await client.query({
      name: 'event_insert',
      text: `insert into "Event" (id, "organizationId", type, data) values ($1, $2, 'contact.created', $3)`,
      values: [`evt_${ulid().toLowerCase()}`, organizationId, JSON.stringify({ object: contact })],
    });
    await client.query('commit');
    return contact;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    if ((error as { code?: string }).code === '23505') {
      throw new HttpError(409, 'CONFLICT', 'A contact with this email already exists in the organization');
    }
    throw error;
  } finally {
    client.release();
  }
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
    return send(res, 201, await createContact(key.organizationId, await readJson(req)));
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
