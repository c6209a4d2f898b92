// What the baselines of `npm run bench` do: the least a real server must do to
// answer GET and POST /v1/crm/contacts and GET /v1/crm/deals like the service
// does, written the fastest way by hand with pg. The same tables and queries, a
// Bearer key checked by SHA-256 against "ApiKey" (cached in memory, as the
// service caches resolved keys), the same JSON bodies; the list with its exact
// total (count(*), as a hand-written server counts), the create together with its
// event row in one statement. Statements are named, so each connection prepares
// them once. Two servers share this work: node-http.ts and express.ts.
// Env: DATABASE_URL, DATABASE_POOL_SIZE (default 10).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { ulid } from 'ulid';

export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

const KEY_TTL_MS = 60_000;
export const BODY_LIMIT_BYTES = 1_048_576;
const COLUMNS = `id, "firstName", "lastName", email, company, phone, tags, "createdAt", "updatedAt"`;

export class HttpError extends Error {
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

export async function authenticate(authorization: string | undefined, scope: string): Promise<Key> {
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

/** One page of the organization's rows of `table`, oldest first, with its exact total (count(*)). */
async function listPage<R, T>(
  table: 'Contact' | 'Deal',
  columns: string,
  publicOf: (row: R) => T,
  organizationId: string,
  query: URLSearchParams,
) {
  const page = pageParameter(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const limit = pageParameter(query, 'limit', 50, 100);
  const [rows, count] = await Promise.all([
    pool.query<R & object>({
      name: `${table}_page`,
      text: `select ${columns} from "${table}" where "organizationId" = $1 order by "createdAt", id limit $2 offset $3`,
      values: [organizationId, limit, (page - 1) * limit],
    }),
    pool.query<{ total: number }>({
      name: `${table}_count`,
      text: `select count(*)::int as total from "${table}" where "organizationId" = $1`,
      values: [organizationId],
    }),
  ]);
  const total = count.rows[0]!.total;
  return { data: rows.rows.map(publicOf), pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
}

export const listContacts = (organizationId: string, query: URLSearchParams) =>
  listPage('Contact', COLUMNS, contactOf, organizationId, query);

export const listDeals = (organizationId: string, query: URLSearchParams) =>
  listPage('Deal', DEAL_COLUMNS, dealOf, organizationId, query);

/** The body as a JSON object, or the 400 the service would answer. */
export function jsonObject(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'VALIDATION_ERROR', 'The request body is not valid JSON');
  }
  return requireObject(body);
}

export function requireObject(body: unknown): Record<string, unknown> {
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

export async function createContact(organizationId: string, body: Record<string, unknown>) {
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'email must be a valid email address');
  }
  const tags = body.tags ?? [];
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'tags must be an array of strings');
  }
  try {
    const { rows } = await pool.query<ContactRow>({
      name: 'contact_insert',
      text: `with contact as (
               insert into "Contact" (id, "organizationId", email, "firstName", "lastName", company, phone, tags, "updatedAt")
               values ($1, $2, $3, $4, $5, $6, $7, $8, now()) returning ${COLUMNS}
             ), event as (
               insert into "Event" (id, "organizationId", type, data)
               select $9, $2, 'contact.created', jsonb_build_object('object', to_jsonb(contact)) from contact
             )
             select * from contact`,
      values: [
        `con_${ulid().toLowerCase()}`,
        organizationId,
        email,
        optionalText(body, 'firstName'),
        optionalText(body, 'lastName'),
        optionalText(body, 'company'),
        optionalText(body, 'phone'),
        [...new Set(tags as string[])],
        `evt_${ulid().toLowerCase()}`,
      ],
    });
    return contactOf(rows[0]!);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new HttpError(409, 'CONFLICT', 'A contact with this email already exists in the organization');
    }
    throw error;
  }
}
