// What the baselines of `npm run bench` do: the least a hand-written server must
// do to answer like the service, written the fastest way by hand with pg.
// - The API key: the Authorization header is looked up in memory; only the
//   first request of a key hashes it (SHA-256) and reads "ApiKey".
// - A list: two named statements side by side, as the service runs them: the page
//   with its columns already in their public form (timestamps formatted by
//   PostgreSQL, so rows are sent as they come, no mapping per row) and the
//   total read from the per-organization counts ("RecordCount") the triggers keep.
// - A create: the row and its event row in one named statement, the same JSON.
// Statements are named, so each connection prepares them once. Two servers share
// this work: node-http.ts and express.ts.
//
// Adding a resource to the bench: a LISTS entry (path, table, columns) and, for
// creates, a CREATES entry; both servers route from these two tables.
// Env: DATABASE_URL, DATABASE_POOL_SIZE (default 10).
import { createHash } from 'node:crypto';
import pg from 'pg';
// The service's id generator: a ULID from a pooled random source (the ulid package's
// default asks the system for one random byte per character, 32 calls a create).
import { newIdWith } from '../../src/ids.js';

export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

export const BODY_LIMIT_BYTES = 1_048_576;

/** Millisecond ISO 8601 UTC, formatted by PostgreSQL as Date#toISOString does (and as the service does). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const CONTACT_COLUMNS = `id, "firstName", "lastName", email, company, phone, tags, "paymentTermsDays",
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;
const DEAL_COLUMNS = `id, title, amount::float8 as amount, currency, stage, "contactId",
  to_char("expectedCloseDate", 'YYYY-MM-DD') as "expectedCloseDate", ${iso('"closedAt"')} as "closedAt",
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;

// The salary and currency are the compensation in effect today (the service's current.ts), the
// department's name read with the row, the periods of employment a JSON array (json, not jsonb: its
// keys keep the order the service's GraphQL selection gives them); a create answers the salary it was given.
const currentPay = (column: string) => `(select ${column} from "Compensation" c
  cross join (select (now() at time zone o."timeZone")::date as today from "Organization" o
    where o.id = "Employee"."organizationId") t
  where c."employeeId" = "Employee".id
  order by coalesce(c."effectiveFrom" <= t.today, true) desc,
    case when coalesce(c."effectiveFrom" <= t.today, true) then c."effectiveFrom" end desc nulls last,
    c."effectiveFrom" asc limit 1)`;
const employeeColumns = (salary: string, currency: string) => `id, "firstName", "lastName", email, "jobTitle",
  "departmentId", (select d.name from "Department" d where d.id = "Employee"."departmentId") as department,
  "managerId", to_char("startDate", 'YYYY-MM-DD') as "startDate", ${salary} as salary,
  ${currency} as currency, phone, status, to_char("endDate", 'YYYY-MM-DD') as "endDate",
  (select coalesce(json_agg(json_build_object('startDate', to_char(e."startDate", 'YYYY-MM-DD'),
     'endDate', to_char(e."endDate", 'YYYY-MM-DD')) order by e.seq), '[]'::json)
   from "Employment" e where e."employeeId" = "Employee".id) as employments,
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;
const DEPARTMENT_COLUMNS = `id, name, code, "managerId", "parentId",
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;
const HOLIDAY_COLUMNS = `id, to_char(date, 'YYYY-MM-DD') as date, name,
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;
const EMPLOYEE_COLUMNS = employeeColumns(currentPay('c.salary::float8'), currentPay('c.currency'));

const COMPENSATION_COLUMNS = `id, "employeeId", salary::float8 as salary, currency,
  to_char("effectiveFrom", 'YYYY-MM-DD') as "effectiveFrom", ${iso('"createdAt"')} as "createdAt",
  ${iso('"updatedAt"')} as "updatedAt"`;
const PAY_COMPONENT_COLUMNS = `id, "employeeId", kind, code, description, amount::float8 as amount,
  percentage::float8 as percentage, to_char("from", 'YYYY-MM-DD') as "from", to_char("to", 'YYYY-MM-DD') as "to",
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;

// Lines as json (not jsonb) so their keys keep the order the service's GraphQL selection gives them.
const INVOICE_COLUMNS = `id, number, "contactId", currency, to_char("issueDate", 'YYYY-MM-DD') as "issueDate",
  to_char("dueDate", 'YYYY-MM-DD') as "dueDate", ("dueDate" - "issueDate") as "paymentTermsDays",
  (select json_agg(json_build_object('description', l->'description', 'quantity', l->'quantity',
     'unitAmount', l->'unitAmount', 'discountPercent', l->'discountPercent', 'discountAmount', l->'discountAmount',
     'discount', l->'discount', 'amount', l->'amount', 'taxRateIds', l->'taxRateIds', 'taxes', l->'taxes'))
   from jsonb_array_elements(lines) l) as lines,
  notes, subtotal::float8 as subtotal, "discountTotal"::float8 as "discountTotal", "taxTotal"::float8 as "taxTotal",
  taxes, total::float8 as total, "amountPaid"::float8 as "amountPaid", "amountCredited"::float8 as "amountCredited",
  (case when status = 'void' then 0 else greatest(0, total - "amountPaid" - "amountCredited") end)::float8 as "amountDue",
  greatest(0, "amountPaid" + "amountCredited" - total)::float8 as "creditBalance", status,
  (status = 'open' and total - "amountPaid" - "amountCredited" > 0 and "dueDate" < (now() at time zone
    (select o."timeZone" from "Organization" o where o.id = "Invoice"."organizationId"))::date) as overdue,
  ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;
const PAYMENT_COLUMNS = `id, "invoiceId", amount::float8 as amount, currency, method, ${iso('"receivedAt"')} as "receivedAt",
  reference, (select coalesce(sum((r->>'amount')::bigint), 0) from jsonb_array_elements(refunds) r)::float8 as "amountRefunded",
  refunds, ${iso('"createdAt"')} as "createdAt", ${iso('"updatedAt"')} as "updatedAt"`;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Key {
  organizationId: string;
  scopes: Set<string>;
}
/** By Authorization header: a key is looked up once, then kept (the bench never revokes one). */
const keys = new Map<string, Key>();

export async function authenticate(authorization: string | undefined, scope: string): Promise<Key> {
  let key = keys.get(authorization ?? '');
  if (!key) {
    const token = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new HttpError(401, 'UNAUTHORIZED', 'A valid Bearer API key is required');
    const { rows } = await pool.query<{ organizationId: string; scopes: string[] }>({
      name: 'api_key',
      text: `select "organizationId", scopes from "ApiKey"
             where "keyHash" = $1 and "revokedAt" is null and ("expiresAt" is null or "expiresAt" > now())`,
      values: [createHash('sha256').update(token).digest('hex')],
    });
    if (!rows[0]) throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key');
    key = { organizationId: rows[0].organizationId, scopes: new Set(rows[0].scopes) };
    keys.set(authorization!, key);
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

interface ListSource {
  table: string;
  /** The SELECT list giving each row in its public form. */
  columns: string;
  scope: string;
}

/** The lists both baselines serve, by path. */
export const LISTS: Record<string, ListSource> = {
  '/v1/crm/contacts': { table: 'Contact', columns: CONTACT_COLUMNS, scope: 'crm:read' },
  '/v1/crm/deals': { table: 'Deal', columns: DEAL_COLUMNS, scope: 'crm:read' },
  '/v1/hr/employees': { table: 'Employee', columns: EMPLOYEE_COLUMNS, scope: 'hr:read' },
  '/v1/hr/departments': { table: 'Department', columns: DEPARTMENT_COLUMNS, scope: 'hr:read' },
  '/v1/hr/holidays': { table: 'Holiday', columns: HOLIDAY_COLUMNS, scope: 'hr:read' },
  '/v1/hr/compensation': { table: 'Compensation', columns: COMPENSATION_COLUMNS, scope: 'hr:payroll' },
  '/v1/hr/pay-components': { table: 'PayComponent', columns: PAY_COMPONENT_COLUMNS, scope: 'hr:payroll' },
  '/v1/finance/invoices': { table: 'Invoice', columns: INVOICE_COLUMNS, scope: 'finance:read' },
};

/**
 * The service's opaque cursor (src/graphql/kit/cursor.ts), written here by hand:
 * base64url of [version, the list's binding, the last row's key, its id], the
 * binding a hash of the table, the sort and the filters (none here), made once
 * per table. The bench compares the answers, so a drift shows at once.
 */
const bindings = new Map<string, string>();
function nextCursor(table: string, last: { createdAt: string; id: string }): string {
  let binding = bindings.get(table);
  if (!binding) {
    binding = createHash('sha256')
      .update(JSON.stringify([table, null, []]))
      .digest('base64url')
      .slice(0, 16);
    bindings.set(table, binding);
  }
  return Buffer.from(JSON.stringify([1, binding, last.createdAt, last.id])).toString('base64url');
}

/**
 * One page of the organization's rows, oldest first, with its total as the count
 * triggers keep it, and the cursor of the next page: one row more than the page
 * tells whether there is one, the last row's createdAt and id make it.
 */
export async function listPage({ table, columns }: ListSource, organizationId: string, query: URLSearchParams) {
  const page = pageParameter(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const limit = pageParameter(query, 'limit', 50, 100);
  const [rows, count] = await Promise.all([
    pool.query<{ id: string; createdAt: string }>({
      name: `${table}_page`,
      text: `select ${columns} from "${table}" where "organizationId" = $1
             order by "${table}"."createdAt", "${table}".id limit $2 offset $3`,
      values: [organizationId, limit + 1, (page - 1) * limit],
    }),
    pool.query<{ total: number }>({
      name: 'counted',
      text: `select coalesce(sum(count), 0)::int as total from "RecordCount" where "tableName" = $1 and "organizationId" = $2`,
      values: [table, organizationId],
    }),
  ]);
  const total = count.rows[0]!.total;
  const more = rows.rows.length > limit;
  const data = more ? rows.rows.slice(0, limit) : rows.rows;
  const last = data[data.length - 1];
  const next = more && last ? nextCursor(table, last) : null;
  return { data, pagination: { page, limit, total, pages: Math.ceil(total / limit), totalExact: true, next } };
}

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

async function createContact(organizationId: string, body: Record<string, unknown>) {
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'email must be a valid email address');
  }
  const tags = body.tags ?? [];
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'tags must be an array of strings');
  }
  try {
    const { rows } = await pool.query({
      name: 'contact_insert',
      text: `with contact as (
               insert into "Contact" (id, "organizationId", email, "firstName", "lastName", company, phone, tags, "updatedAt")
               values ($1, $2, $3, $4, $5, $6, $7, $8, now()) returning ${CONTACT_COLUMNS}
             ), event as (
               insert into "Event" (id, "organizationId", type, data)
               select $9, $2, 'contact.created', jsonb_build_object('object', to_jsonb(contact)) from contact
             )
             select * from contact`,
      values: [
        newIdWith('con'),
        organizationId,
        email,
        optionalText(body, 'firstName'),
        optionalText(body, 'lastName'),
        optionalText(body, 'company'),
        optionalText(body, 'phone'),
        [...new Set(tags as string[])],
        newIdWith('evt'),
      ],
    });
    return rows[0] as object;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new HttpError(409, 'CONFLICT', 'A contact with this email already exists in the organization');
    }
    throw error;
  }
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

function currencyOf(body: Record<string, unknown>, required: boolean): string | null {
  const value = body.currency;
  if ((value === undefined || value === null) && !required) return null;
  const code = typeof value === 'string' ? value.toUpperCase() : '';
  if (!CURRENCIES.has(code)) throw new HttpError(400, 'VALIDATION_ERROR', 'currency must be an ISO 4217 code');
  return code;
}

function requiredText(body: Record<string, unknown>, field: string): string {
  const value = optionalText(body, field);
  if (!value) throw new HttpError(400, 'VALIDATION_ERROR', `${field} is required`);
  return value;
}

/** A deal: the contact it names checked in the insert's own statement, as the service does. */
async function createDeal(organizationId: string, body: Record<string, unknown>) {
  const amount = body.amount ?? 0;
  if (!Number.isSafeInteger(amount) || (amount as number) < 0) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'amount must be a whole number of minor units');
  }
  const { rows } = await pool.query({
    name: 'deal_insert',
    text: `with deal as (
             insert into "Deal" (id, "organizationId", title, amount, currency, stage, "contactId", "expectedCloseDate", "updatedAt")
             select $1, $2, $3, $4, $5, 'lead', $6, $7, now()
             where $6::text is null or exists (select 1 from "Contact" where id = $6 and "organizationId" = $2)
             returning ${DEAL_COLUMNS}
           ), event as (
             insert into "Event" (id, "organizationId", type, data)
             select $8, $2, 'deal.created', jsonb_build_object('object', to_jsonb(deal)) from deal
           )
           select * from deal`,
    values: [
      newIdWith('deal'),
      organizationId,
      requiredText(body, 'title'),
      amount,
      currencyOf(body, true),
      optionalText(body, 'contactId'),
      optionalText(body, 'expectedCloseDate'),
      newIdWith('evt'),
    ],
  });
  if (!rows[0]) throw new HttpError(400, 'VALIDATION_ERROR', 'contactId: no contact with this id');
  return rows[0] as object;
}

async function createEmployee(organizationId: string, body: Record<string, unknown>) {
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'email must be a valid email address');
  }
  const salary = body.salary ?? null;
  if (salary !== null && (!Number.isSafeInteger(salary) || (salary as number) < 0)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'salary must be a whole number of minor units');
  }
  // The department named is the organization's, checked in the insert's own statement, as the service does.
  const { rows } = await pool.query({
    name: 'employee_insert',
    text: `with employee as (
             insert into "Employee" (id, "organizationId", "firstName", "lastName", email, "jobTitle", "departmentId",
                                     "startDate", status, "updatedAt")
             select $1, $2, $3, $4, $5, $6, $7, $8, 'active', now()
             where $7::text is null or exists (select 1 from "Department" where id = $7 and "organizationId" = $2)
             returning ${employeeColumns('$9::bigint::float8', '$10::text')}
           ), employment as (
             insert into "Employment" ("organizationId", "employeeId", seq, "startDate")
             select $2, id, 1, $8::date from employee
           ), compensation as (
             insert into "Compensation" (id, "organizationId", "employeeId", salary, currency, "effectiveFrom")
             select $12, $2, id, $9, $10, $8::date from employee where $9::bigint is not null
           ), event as (
             insert into "Event" (id, "organizationId", type, data)
             select $11, $2, 'employee.created', jsonb_build_object('object', to_jsonb(employee)) from employee
           )
           select * from employee`,
    values: [
      newIdWith('emp'),
      organizationId,
      requiredText(body, 'firstName'),
      requiredText(body, 'lastName'),
      email,
      optionalText(body, 'jobTitle'),
      optionalText(body, 'departmentId'),
      optionalText(body, 'startDate'),
      salary,
      currencyOf(body, salary !== null),
      newIdWith('evt'),
      newIdWith('cmp'),
    ],
  });
  if (!rows[0]) throw new HttpError(400, 'VALIDATION_ERROR', 'departmentId: no department with this id');
  return rows[0] as object;
}

/** A department: its code upper-cased and unique in the organization (409 from the unique index). */
async function createDepartment(organizationId: string, body: Record<string, unknown>) {
  const code = requiredText(body, 'code').toUpperCase();
  if (code.length > 20 || !/^[A-Z0-9][A-Z0-9._-]*$/.test(code)) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'code must be letters, digits, -, _ or .');
  }
  try {
    const { rows } = await pool.query({
      name: 'department_insert',
      text: `with department as (
               insert into "Department" (id, "organizationId", name, code, "managerId", "parentId", "updatedAt")
               values ($1, $2, $3, $4, null, null, now()) returning ${DEPARTMENT_COLUMNS}
             ), event as (
               insert into "Event" (id, "organizationId", type, data)
               select $5, $2, 'department.created', jsonb_build_object('object', to_jsonb(department)) from department
             )
             select * from department`,
      values: [newIdWith('dep'), organizationId, requiredText(body, 'name'), code, newIdWith('evt')],
    });
    return rows[0] as object;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new HttpError(409, 'CONFLICT', 'A department with this code already exists in the organization');
    }
    throw error;
  }
}

const METHODS = new Set(['card', 'bank_transfer', 'cash', 'other']);

/** An unallocated payment (no invoice to lock): the row and payment.received in one statement. */
async function createPayment(organizationId: string, body: Record<string, unknown>) {
  if (!Number.isSafeInteger(body.amount) || (body.amount as number) < 1) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'amount must be a positive whole number of minor units');
  }
  if (!METHODS.has(body.method as string)) throw new HttpError(400, 'VALIDATION_ERROR', 'method is not known');
  const { rows } = await pool.query({
    name: 'payment_insert',
    text: `with payment as (
             insert into "Payment" (id, "organizationId", amount, currency, method, "receivedAt", reference, "updatedAt")
             values ($1, $2, $3, $4, $5, now(), $6, now()) returning ${PAYMENT_COLUMNS}
           ), event as (
             insert into "Event" (id, "organizationId", type, data)
             select $7, $2, 'payment.received', jsonb_build_object('object', to_jsonb(payment)) from payment
           )
           select * from payment`,
    values: [
      newIdWith('pmt'),
      organizationId,
      body.amount,
      currencyOf(body, true),
      body.method,
      optionalText(body, 'reference'),
      newIdWith('evt'),
    ],
  });
  return rows[0] as object;
}

interface CreateRoute {
  scope: string;
  create: (organizationId: string, body: Record<string, unknown>) => Promise<object>;
}

/** The creates both baselines serve, by path. */
export const CREATES: Record<string, CreateRoute> = {
  '/v1/crm/contacts': { scope: 'crm:write', create: createContact },
  '/v1/crm/deals': { scope: 'crm:write', create: createDeal },
  '/v1/hr/employees': { scope: 'hr:write', create: createEmployee },
  '/v1/hr/departments': { scope: 'hr:write', create: createDepartment },
  '/v1/finance/payments': { scope: 'finance:write', create: createPayment },
};
