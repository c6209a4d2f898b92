import 'reflect-metadata';
// The OpenAPI document and the server cannot drift apart: every operation of
// GET /v1/openapi.json is driven through Stoplight Prism, an independent
// validating proxy, with a valid request (which both must accept, the answer as
// documented) and with each error the document lists that a request can reach
// (400, 401, 403, 404, 409, 413, 415), whose answers must match the document
// too. A request the server refuses as malformed (400, 401, 415) must be one the
// document refuses as well. The operations come from the document itself, and
// the last test checks that each one was driven with each of its errors, so a
// new route or a newly documented error cannot go untested.
//
// What is specific to a resource is only what a valid request needs and the
// document cannot say (a create's body, how a collection gets an item, the
// requests that reach a conflict). A declared resource brings its own: bodies
// from its examples (with new records for the references a create needs), the
// actions that lead a record to a state from its lifecycle, and the requests
// that reach its unique fields' and its lifecycle's conflicts from both
// (support/examples.ts). The tables below, keyed by path or operationId, hold
// the rest: the system resources, and conflicts only a particular rule makes.
// A new field or declared resource needs no edit here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/auth/scopes.js';
import { scopedFieldsOf } from '../src/graphql/kit/fields.js';
import { actionPath } from '../src/graphql/kit/lifecycle.js';
import { actionsOf, type Resource } from '../src/graphql/kit/resource.js';
import { ROUTES } from '../src/graphql/modules.js';
import { getSchema } from '../src/graphql/schema.js';
import { buildOpenApiDocument } from '../src/rest/openapi.js';
import { servedRoutes } from '../src/rest/served-route.js';
import { scopesLacking } from './support/contract.js';
import {
  actionBody,
  createBody,
  declared,
  declaredAt,
  stepsBefore,
  stepsOutOf,
  stepsToLocked,
  stepsToUndeletable,
  uniqueFieldsOf,
  type RecordMaker,
  type Step,
} from './support/examples.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import { startPrismProxy, throughPrism, type PrismProxy, type ProxiedResponse } from './support/prism.js';
import { eventually, useReceivers, useWorker, type Receiver } from './support/receiver.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

interface DocumentedOperation {
  operationId: string;
  method: string;
  /** As the document writes it: /crm/contacts/{id}. */
  template: string;
  spec: any;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function operationsOf(document: any): DocumentedOperation[] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ operationId: spec.operationId as string, method, template, spec })),
  );
}

// The operations to drive, one test each, from the document the server serves
// (built here by the same generator, as the tests are collected before the server
// starts; the last test checks the served one lists exactly these).
const OPERATIONS = operationsOf(buildOpenApiDocument(servedRoutes(await getSchema(), ROUTES), 'http://127.0.0.1'));

/** The errors a request can reach, each checked where the document lists it. */
const DRIVEN_ERRORS = [400, 401, 403, 404, 409, 413, 415];

const BODY_LIMIT_BYTES = 8192;
const server = useServer({
  RATE_LIMIT_MAX: '1000000',
  BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
  // An upload's own limit, as small, so its 413 is driven too.
  IMPORT_MAX_BYTES: String(BODY_LIMIT_BYTES),
});
useWorker(server);
const receivers = useReceivers();

let proxy: PrismProxy;
let servedDocument: any;
let home: TestOrg;
let admin: string;
let receiver: Receiver;
let counter = 0;
/** operationId -> the statuses it answered through the proxy, as documented. */
const driven = new Map<string, Set<number>>();

// Valid bodies for what the document cannot make up, by the collection's path (a declared resource's: its examples).
const CREATE_BODIES: Record<string, (n: number) => Body | Promise<Body>> = {
  '/users': (n) => ({
    email: `conformance-${n}@example.test`,
    name: `User ${n}`,
    role: 'member',
    scopes: ['crm:read'],
    password: 'a long enough password',
  }),
  '/api-keys': (n) => ({ name: `key ${n}`, scopes: ['crm:read'] }),
  '/webhooks': (n) => ({ url: `${receiver.url}/hook-${n}`, events: ['deal.closed'], description: `hook ${n}` }),
  '/oauth-apps': (n) => ({
    name: `App ${n}`,
    description: 'A test app',
    redirectUris: [`https://app-${n}.example.test/cb`],
    scopes: ['crm:read'],
  }),
  '/exports': () => ({ resource: 'contacts', format: 'csv', filters: { company: 'Analytical Engines' } }),
};

// Operations whose body is a file (an upload), by path: the query it needs, its media type and a valid file.
const UPLOADS: Record<string, { query: string; contentType: string; file: () => string }> = {
  '/imports': {
    query: '?resource=contacts&dryRun=true',
    contentType: 'text/csv',
    file: () => `email,firstName\r\nupload-${++counter}@example.test,Ada\r\n`,
  },
};

// Query strings an operation needs, by operationId: a valid one, and one the server refuses (400).
const QUERIES: Record<string, { valid: string; invalid: string }> = {
  getImportTemplate: { valid: '?resource=contacts', invalid: '?resource=nothing' },
};

// Bodies of the other operations whose body has required fields, by operationId (the rest are sent none).
const ACTION_BODIES: Record<string, Body> = {
  redeliverWebhook: { since: 0 },
};

// Bodies of a PUT when the record as read is too large to send back under this suite's body limit, by operationId.
const UPDATE_BODIES: Record<string, Body> = {
  // A run holds a payslip for every employee of the organization, and the suites make many.
  updatePayrollRun: { payDate: '2999-12-31' },
};

// How a path parameter that is no record of a collection gets a value, by the path before it.
const PARAMETERS: Record<string, (path: string) => Promise<string>> = {
  // An employee with a payslip in the run: one hired (with a salary) and the run recalculated.
  '/hr/payroll-runs/{id}/payslips': async (path) => {
    const run = path.slice(0, path.lastIndexOf('/payslips'));
    // The declared example sets no salary (that needs hr:payroll besides the area's scopes): given here.
    const hired = await server.rest('POST', '/v1/hr/employees', {
      key: admin,
      body: { ...(await bodyOf(declaredAt('/hr/employees')!)), salary: 9_000_000, currency: 'USD' },
    });
    expect(hired.status, hired.text).toBe(201);
    const employee = hired.body as Body;
    const recalculated = await server.rest('POST', `/v1${run}/recalculate`, { key: admin });
    expect(recalculated.status, recalculated.text).toBe(200);
    expect(recalculated.body.items.map((item: Body) => item.employeeId)).toContain(employee.id);
    return employee.id;
  },
};

// How a collection the API does not create into gets an item, by its path.
const FILL: Record<string, (path: string) => Promise<void>> = {
  // A test event, delivered to the receiver and logged.
  '/webhooks/{id}/deliveries': async (path) => {
    const sent = await server.rest('POST', `/v1${path.replace(/\/deliveries$/, '/test')}`, { key: admin });
    expect(sent.status, sent.text).toBe(200);
    await eventually(async () => (await server.rest('GET', `/v1${path}`, { key: admin })).body?.data?.length > 0);
  },
};

// What an action's record needs first to be valid for it, by operationId (a declared action's: its lifecycle's way there).
const BEFORE_ACTION: Record<string, (path: string) => Promise<void>> = {
  // The file exists once the worker has written it.
  downloadExport: async (path) => {
    const shown = `/v1${path.replace(/\/download$/, '')}`;
    await eventually(async () => (await server.rest('GET', shown, { key: admin })).body?.status === 'completed');
  },
};

async function act(path: string, body?: Body): Promise<void> {
  const res = await server.rest('POST', `/v1${path}`, { key: admin, body });
  expect(res.status, `${path}: ${res.text}`).toBe(200);
}

/** Runs lifecycle actions on the record at `record` (/hr/employees/emp_...), each with its example body. */
async function walk(record: string, steps: Step[]): Promise<void> {
  for (const step of steps) await act(`${record}/${step.path}`, step.body);
}

/** The declared resource of a documented route, and the action it runs, if it is one. */
function declaredOf(template: string): { resource: Resource; action?: string } | undefined {
  for (const resource of declared()) {
    if (template === resource.fullPath || template === `${resource.fullPath}/{id}`) return { resource };
    const segment = template.startsWith(`${resource.fullPath}/{id}/`) && template.split('/').at(-1);
    const action = Object.keys(actionsOf(resource)).find((name) => actionPath(name) === segment);
    if (action) return { resource, action };
  }
  return undefined;
}

/**
 * The requests that make a declared resource's 409s: a create or a PUT giving
 * a unique field another record's value; an action on a record its actions
 * took to a state the action cannot start from; a PUT of the update example
 * on a record taken to a state that refuses edits; a DELETE of a record taken
 * to a state it may not be deleted in.
 */
function declaredConflicts(operation: DocumentedOperation): (() => Promise<ProxiedResponse>)[] {
  const found = declaredOf(operation.template);
  if (!found) return [];
  const { resource, action } = found;
  const collection = resource.fullPath;
  const fresh = () => create(collection, collection);
  if (action) {
    const steps = stepsOutOf(resource, action);
    return steps
      ? [
          async () => {
            const record = await fresh();
            await walk(`${collection}/${record.id}`, steps);
            const body = await actionBody(resource, action, MAKER);
            return via('POST', `${collection}/${record.id}/${actionPath(action)}`, { key: admin, body });
          },
        ]
      : [];
  }
  if (operation.method === 'post') {
    return uniqueFieldsOf(resource, 'create').map((field) => async () => {
      const taken = await fresh();
      return via('POST', collection, { key: admin, body: { ...(await bodyOf(resource)), [field]: taken[field] } });
    });
  }
  if (operation.method === 'delete') {
    const undeletable = stepsToUndeletable(resource);
    return undeletable
      ? [
          async () => {
            const record = await fresh();
            await walk(`${collection}/${record.id}`, undeletable);
            return via('DELETE', `${collection}/${record.id}`, { key: admin });
          },
        ]
      : [];
  }
  if (operation.method !== 'put') return [];
  const locked = stepsToLocked(resource);
  return [
    ...uniqueFieldsOf(resource, 'update').map((field) => async () => {
      const [taken, other] = [await fresh(), await fresh()];
      return via('PUT', `${collection}/${other.id}`, { key: admin, body: { [field]: taken[field] } });
    }),
    ...(locked
      ? [
          async () => {
            const record = await fresh();
            await walk(`${collection}/${record.id}`, locked);
            return via('PUT', `${collection}/${record.id}`, { key: admin, body: resource.examples?.update });
          },
        ]
      : []),
  ];
}

/** 403s that the input decides, not the operation's scope: the request that makes each, by operationId. */
const FORBIDDEN: Record<string, () => Promise<ProxiedResponse>> = {
  // Importing contacts needs crm:write.
  createImport: async () =>
    via('POST', `/imports${UPLOADS['/imports']!.query}`, {
      key: await keyWith(['crm:read']),
      rawBody: UPLOADS['/imports']!.file(),
      headers: { 'content-type': 'text/csv' },
    }),
  // Exporting contacts needs crm:read (issue 26: the resource's read scope, not admin).
  createExport: async () =>
    via('POST', '/exports', { key: await keyWith(['finance:read']), body: { resource: 'contacts', format: 'csv' } }),
};

/** Conflicts no generic request reaches: the request that makes each 409, by operationId. */
const CONFLICTS: Record<string, () => Promise<ProxiedResponse>> = {
  updateDeal: async () => {
    const deal = await create('/crm/deals', '/crm/deals');
    const won = await server.rest('PUT', `/v1/crm/deals/${deal.id}`, { key: admin, body: { stage: 'won' } });
    expect(won.status, won.text).toBe(200);
    return via('PUT', `/crm/deals/${deal.id}`, { key: admin, body: { stage: 'lead' } });
  },
  // A contact an invoice is made out to cannot be deleted.
  deleteContact: async () => {
    const contact = await create('/crm/contacts', '/crm/contacts');
    const invoiced = await server.rest('POST', '/v1/finance/invoices', {
      key: admin,
      body: { ...(await bodyOf(declaredAt('/finance/invoices')!)), contactId: contact.id },
    });
    expect(invoiced.status, invoiced.text).toBe(201);
    return via('DELETE', `/crm/contacts/${contact.id}`, { key: admin });
  },
  // A department an employee belongs to cannot be deleted.
  deleteDepartment: async () => {
    const department = await create('/hr/departments', '/hr/departments');
    const hired = await server.rest('POST', '/v1/hr/employees', {
      key: admin,
      body: { ...(await bodyOf(declaredAt('/hr/employees')!)), departmentId: department.id },
    });
    expect(hired.status, hired.text).toBe(201);
    return via('DELETE', `/hr/departments/${department.id}`, { key: admin });
  },
  // A tax rate an invoice line names cannot be deleted (deactivated instead).
  deleteTaxRate: async () => {
    const rate = await create('/finance/tax-rates', '/finance/tax-rates');
    const body = (await bodyOf(declaredAt('/finance/invoices')!)) as { lines: object[] };
    const invoiced = await server.rest('POST', '/v1/finance/invoices', {
      key: admin,
      body: { ...body, lines: body.lines.map((line) => ({ ...line, taxRateIds: [rate.id] })) },
    });
    expect(invoiced.status, invoiced.text).toBe(201);
    return via('DELETE', `/finance/tax-rates/${rate.id}`, { key: admin });
  },
  // An invoice with payments cannot be voided; a payment against a draft is refused.
  voidInvoice: async () => {
    const invoice = await openInvoice();
    const paid = await server.rest('POST', '/v1/finance/payments', {
      key: admin,
      body: { invoiceId: invoice.id, amount: 1, currency: 'EUR', method: 'cash' },
    });
    expect(paid.status, paid.text).toBe(201);
    return via('POST', `/finance/invoices/${invoice.id}/void`, { key: admin });
  },
  createPayment: async () => {
    const draft = await create('/finance/invoices', '/finance/invoices');
    const body = { invoiceId: draft.id, amount: 1, currency: 'EUR', method: 'cash' };
    return via('POST', '/finance/payments', { key: admin, body });
  },
  // An export that failed has no file (one not yet completed neither, but the worker is quick).
  downloadExport: async () => {
    const id = `xpt_${'1'.repeat(26)}`;
    await server.prisma.$executeRawUnsafe(
      `insert into "Export" (id, "organizationId", resource, format, status, "failureReason", "updatedAt")
       values ($1, $2, 'contacts', 'csv', 'failed', 'made to fail', now())`,
      id,
      home.id,
    );
    return via('GET', `/exports/${id}/download`, { key: admin });
  },
  // One leave policy per type and first year: another policy moved onto a taken pair.
  updateLeavePolicy: async () => {
    const taken = await create('/hr/leave-policies', '/hr/leave-policies');
    const other = await create('/hr/leave-policies', '/hr/leave-policies');
    const body = { type: taken.type, fromYear: taken.fromYear };
    expect(other.id).not.toBe(taken.id);
    return via('PUT', `/hr/leave-policies/${other.id}`, { key: admin, body });
  },
  // A compensation record moved onto the day of another of the employee's; a pay component onto another's days.
  updateCompensation: async () => {
    const first = await create('/hr/compensation', '/hr/compensation');
    // Another of the employee's, on another day (the example's employee is hired without a salary).
    const other = await server.rest('POST', '/v1/hr/compensation', {
      key: admin,
      body: { employeeId: first.employeeId, salary: 9_000_000, currency: first.currency, effectiveFrom: '2019-06-01' },
    });
    expect(other.status, other.text).toBe(201);
    return via('PUT', `/hr/compensation/${first.id}`, { key: admin, body: { effectiveFrom: '2019-06-01' } });
  },
  updatePayComponent: async () => {
    const first = await create('/hr/pay-components', '/hr/pay-components');
    const body = { ...(await bodyOf(declaredAt('/hr/pay-components')!)), employeeId: first.employeeId, code: 'other' };
    const second = await server.rest('POST', '/v1/hr/pay-components', { key: admin, body });
    expect(second.status, second.text).toBe(201);
    return via('PUT', `/hr/pay-components/${second.body.id}`, { key: admin, body: { code: first.code } });
  },
  // The last admin (of an organization of its own) can be neither demoted nor deleted.
  updateUser: async () => {
    const { key, adminId } = await loneAdmin();
    return via('PUT', `/users/${adminId}`, { key, body: { role: 'member', scopes: ['crm:read'] } });
  },
  deleteUser: async () => {
    const { key, adminId } = await loneAdmin();
    return via('DELETE', `/users/${adminId}`, { key });
  },
};

async function openInvoice(): Promise<Body> {
  const invoice = await create('/finance/invoices', '/finance/invoices');
  const opened = await server.rest('POST', `/v1/finance/invoices/${invoice.id}/open`, { key: admin });
  expect(opened.status, opened.text).toBe(200);
  return opened.body;
}

async function loneAdmin(): Promise<{ key: string; adminId: string }> {
  const key = await (await server.org()).key(['admin']);
  const users = await server.rest('GET', '/v1/users', { key });
  const adminUser = users.body.data.find((user: Body) => user.role === 'admin');
  expect(adminUser, users.text).toBeDefined();
  return { key, adminId: adminUser.id };
}

beforeAll(async () => {
  const res = await server.rest('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  servedDocument = res.body;
  proxy = await startPrismProxy(servedDocument, `${server.url}/v1`);
  home = await server.org();
  admin = await home.key(['admin']);
  receiver = await receivers();
});

afterAll(async () => {
  await proxy?.close();
});

function via(method: string, path: string, options: Parameters<typeof throughPrism>[3] = {}) {
  return throughPrism(proxy, method, path, options);
}

/** Makes the records a declared resource's create names, directly on the server. */
const MAKER: RecordMaker = {
  next: () => ++counter,
  async make(resource, body) {
    const res = await server.rest('POST', `/v1${resource.fullPath}`, { key: admin, body });
    expect(res.status, `creating in ${resource.fullPath}: ${res.text}`).toBe(201);
    return res.body;
  },
  act: (resource, id, step) => act(`${resource.fullPath}/${id}/${step.path}`, step.body),
};

/** A valid create body of a declared resource: its next example, its references new records. */
const bodyOf = (resource: Resource) => createBody(resource, ++counter, MAKER);

/** A valid create body for the collection: a declared resource's example, else the table's. */
async function createBodyAt(template: string): Promise<Body | undefined> {
  const resource = declaredAt(template);
  return resource ? bodyOf(resource) : CREATE_BODIES[template]?.(++counter);
}

/** A new record in the collection, made directly on the server (not the operation under test). */
async function create(collection: string, template: string): Promise<Body> {
  const upload = UPLOADS[template];
  if (upload) {
    const res = await server.rest('POST', `/v1${collection}${upload.query}`, {
      key: admin,
      body: upload.file(),
      headers: { 'content-type': upload.contentType },
    });
    expect(res.status, `uploading to ${collection}: ${res.text}`).toBe(202);
    return res.body;
  }
  const body = await createBodyAt(template);
  if (!body) throw new Error(`POST ${template} is documented: give a valid body in CREATE_BODIES`);
  const res = await server.rest('POST', `/v1${collection}`, { key: admin, body });
  // 201, or 202 for what the worker then makes (an export).
  expect([201, 202], `creating in ${collection}: ${res.text}`).toContain(res.status);
  return res.body;
}

/** The id of a record in the collection: a new one where the API creates them, else the first listed. */
async function recordIn(collection: string, template: string): Promise<string> {
  if (servedDocument.paths[template]?.post) return (await create(collection, template)).id;
  await FILL[template]?.(collection);
  const listed = await server.rest('GET', `/v1${collection}?limit=1`, { key: admin });
  const first = listed.body?.data?.[0];
  expect(first, `GET ${collection} lists nothing to use; add an entry to FILL`).toBeDefined();
  return first.id;
}

/** The template with each parameter a record made for this request: /crm/contacts/con_... */
async function concretePath(template: string): Promise<{ path: string; ids: string[] }> {
  let path = '';
  let prefix = '';
  const ids: string[] = [];
  for (const segment of template.split('/').slice(1)) {
    if (/^\{\w+\}$/.test(segment)) {
      const parameter = PARAMETERS[prefix];
      const id = parameter ? await parameter(path) : await recordIn(path, prefix);
      ids.push(id);
      path += `/${id}`;
    } else {
      path += `/${segment}`;
    }
    prefix += `/${segment}`;
  }
  return { path, ids };
}

/** The same form as a real id (its prefix, 26 base-32 characters), naming nothing. */
const unknownLike = (id: string) => id.replace(/[0-9a-z]{26}$/, '0'.repeat(26));

/** The scope the document says an operation needs: null for none, '' for any valid credential. */
function scopeOf(operation: DocumentedOperation): Scope | '' | null {
  const security: Record<string, string[]>[] = operation.spec.security ?? servedDocument.security ?? [];
  if (security.length === 0) return null;
  return (security[0]!.bearerAuth?.[0] ?? '') as Scope | '';
}

const keys = new Map<string, Promise<string>>();
function keyWith(scopes: Scope[]): Promise<string> {
  const name = scopes.join(' ');
  if (!keys.has(name)) keys.set(name, home.key(scopes));
  return keys.get(name)!;
}

/** The operation's body schema: its component, when named (`ContactCreate`). */
function requestSchema(operation: DocumentedOperation): Body | undefined {
  const schema = operation.spec.requestBody?.content?.['application/json']?.schema;
  const component = /^#\/components\/schemas\/(\w+)$/.exec(schema?.$ref ?? '')?.[1];
  return component ? servedDocument.components.schemas[component] : schema;
}

/**
 * A valid body: the create's, the action's, or for a PUT the record as GET shows
 * it (read-only fields and all) but for the fields the document's body does not
 * name (those only an action changes, such as an employee's status).
 */
async function validBody(operation: DocumentedOperation, path: string): Promise<Body | undefined> {
  if (!operation.spec.requestBody) return undefined;
  if (operation.method === 'put' && UPDATE_BODIES[operation.operationId]) return UPDATE_BODIES[operation.operationId];
  if (operation.method === 'put') {
    const current = await server.rest('GET', `/v1${path}`, { key: admin });
    expect(current.status, current.text).toBe(200);
    const names: string[] | undefined = requestSchema(operation)?.propertyNames?.enum;
    // Read by an admin: without the fields a key with the write scope alone may not send (a salary).
    const scope = scopeOf(operation);
    const found = declaredOf(operation.template);
    const hidden = found
      ? scopedFieldsOf(found.resource.type)
          .filter((field) => field.scope !== scope)
          .map((field) => field.name)
      : [];
    const sent = Object.entries(current.body).filter(([name]) => !hidden.includes(name));
    return Object.fromEntries(names ? sent.filter(([name]) => names.includes(name)) : sent);
  }
  if (!/\{\w+\}/.test(operation.template)) return createBodyAt(operation.template);
  // Otherwise none: an action the document says needs a body, and has no entry, fails on Prism's word.
  const found = declaredOf(operation.template);
  return found?.action ? actionBody(found.resource, found.action, MAKER) : ACTION_BODIES[operation.operationId];
}

/**
 * Another request to the operation that the document accepts, for the
 * Idempotency-Key conflict (the key is checked before the body or the record):
 * a create with a read-only field added; an action, whose body is its input
 * alone (issue 23), on another record's path.
 */
function otherRequest(
  operation: DocumentedOperation,
  path: string,
  ids: string[],
  body: Body | undefined,
): { path: string; body: Body | undefined } | undefined {
  if (requestSchema(operation)?.propertyNames?.enum?.includes('id')) return { path, body: { ...body, id: 'ignored' } };
  const last = ids.at(-1);
  if (!last) return undefined;
  const at = path.lastIndexOf(last);
  return { path: path.slice(0, at) + unknownLike(last) + path.slice(at + last.length), body };
}

/** A query parameter the document types as an integer or a date, given a word. */
function invalidQuery(operation: DocumentedOperation): string | undefined {
  const parameter = (operation.spec.parameters ?? []).find(
    (p: any) => p.in === 'query' && (p.schema?.type === 'integer' || p.schema?.format === 'date'),
  );
  return parameter && `?${parameter.name}=many`;
}

function explain(res: ProxiedResponse): string {
  return JSON.stringify({
    status: res.status,
    body: res.text.slice(0, 800),
    request: res.requestViolations,
    response: res.responseViolations,
    prism: res.responseViolations.length ? proxy.output().slice(-2000) : undefined,
  });
}

/**
 * The answer has the expected status and matches the document; `refused` says
 * whether the document must also refuse the request (true), must accept it
 * (false), or cannot know (undefined: 403, 404, 409, 413 depend on state or size).
 */
function expectAnswer(operation: DocumentedOperation, res: ProxiedResponse, status: number, refused?: boolean) {
  expect(res.status, explain(res)).toBe(status);
  expect(res.responseViolations, explain(res)).toEqual([]);
  if (refused === true) expect(res.requestViolations.length, explain(res)).toBeGreaterThan(0);
  if (refused === false) expect(res.requestViolations, explain(res)).toEqual([]);
  expect(operation.spec.responses[String(status)], `${operation.operationId} documents ${status}`).toBeDefined();
  if (!driven.has(operation.operationId)) driven.set(operation.operationId, new Set());
  driven.get(operation.operationId)!.add(status);
}

function documentedSuccess(operation: DocumentedOperation): number {
  const success = Object.keys(operation.spec.responses).find((status) => /^2\d\d$/.test(status));
  expect(success, `${operation.operationId} documents a success`).toBeDefined();
  return Number(success);
}

const TITLED = OPERATIONS.map(
  (operation) => [`${operation.method.toUpperCase()} ${operation.template}`, operation] as const,
);

describe.each(TITLED)('%s', (_title, operation) => {
  it('agrees with the document on a valid request and on every error it can reach', async () => {
    const { method, template, operationId, spec } = operation;
    const verb = method.toUpperCase();
    const documents = (status: number) => Boolean(spec.responses[String(status)]);

    const { path, ids } = await concretePath(template);
    await BEFORE_ACTION[operationId]?.(path);
    const { resource, action } = declaredOf(template) ?? {};
    if (resource && action) {
      const steps = stepsBefore(resource, action);
      expect(steps, `no action of ${resource.type.name} leads to a state ${action} starts from`).toBeDefined();
      await walk(path.slice(0, path.lastIndexOf('/')), steps!);
    }
    // A list gets an item first, so its answer's items are checked too.
    if (method === 'get' && !template.endsWith('}') && (servedDocument.paths[template]?.post || FILL[template])) {
      await recordIn(path, template);
    }
    const upload = method === 'post' ? UPLOADS[template] : undefined;
    const query = QUERIES[operationId];
    const body = upload ? undefined : await validBody(operation, path);
    // An upload sends its file; the rest, JSON.
    const file = () => (upload ? { rawBody: upload.file(), headers: { 'content-type': upload.contentType } } : {});
    const target = path + (upload?.query ?? query?.valid ?? '');
    const scope = scopeOf(operation);
    const key = scope ? await keyWith([scope]) : scope === '' ? admin : undefined;

    // The errors first: none of them changes anything.
    if (scope !== null && documents(401)) {
      expectAnswer(operation, await via(verb, target, { body, ...file() }), 401, true);
    }
    if (scope && documents(403)) {
      expectAnswer(operation, await via(verb, target, { key: await keyWith(scopesLacking(scope)), body }), 403, false);
    }
    if (FORBIDDEN[operationId]) expectAnswer(operation, await FORBIDDEN[operationId](), 403, false);
    if (upload && documents(400)) {
      expectAnswer(operation, await via(verb, `${path}?resource=nothing`, { key, ...file() }), 400);
    }
    if (query && documents(400)) {
      expectAnswer(operation, await via(verb, path + query.invalid, { key }), 400);
    }
    if (spec.requestBody && !upload && documents(400)) {
      const unknownField = { ...body, notAField: true };
      expectAnswer(operation, await via(verb, path, { key, body: unknownField }), 400, true);
    }
    const badQuery = invalidQuery(operation);
    if (badQuery && documents(400)) {
      expectAnswer(operation, await via(verb, path + badQuery, { key, body }), 400, true);
    }
    if (ids.length && documents(404)) {
      const last = ids.at(-1)!;
      const at = path.lastIndexOf(last);
      const missing = path.slice(0, at) + unknownLike(last) + path.slice(at + last.length);
      expectAnswer(operation, await via(verb, missing, { key, body }), 404, false);
    }
    if (spec.requestBody && documents(415)) {
      const text = await via(verb, target, { key, headers: { 'content-type': 'text/plain' }, rawBody: 'hello' });
      expectAnswer(operation, text, 415, true);
    }
    if (upload && documents(413)) {
      const large = {
        rawBody: upload.file() + 'x'.repeat(BODY_LIMIT_BYTES),
        headers: { 'content-type': upload.contentType },
      };
      expectAnswer(operation, await via(verb, target, { key, ...large }), 413);
    } else if (spec.requestBody && documents(413)) {
      const large = { ...body, padding: 'x'.repeat(BODY_LIMIT_BYTES) };
      expectAnswer(operation, await via(verb, path, { key, body: large }), 413);
    }

    // The valid request, with an Idempotency-Key where one is taken (an upload takes none).
    const idempotencyKey = `conformance-${operationId}-${++counter}`;
    const headers: Record<string, string> = verb === 'POST' && !upload ? { 'Idempotency-Key': idempotencyKey } : {};
    const valid = upload ? file() : { body, headers };
    expectAnswer(operation, await via(verb, target, { key, ...valid }), documentedSuccess(operation), false);

    // The same key with another request (valid as the document says) conflicts: for a create, a
    // read-only field added; for an action, whose body is its input only, another record's path.
    const other = verb === 'POST' && documents(409) ? otherRequest(operation, path, ids, body) : undefined;
    if (other) expectAnswer(operation, await via(verb, other.path, { key, body: other.body, headers }), 409, false);
    for (const conflict of declaredConflicts(operation)) expectAnswer(operation, await conflict(), 409, false);
    if (CONFLICTS[operationId]) expectAnswer(operation, await CONFLICTS[operationId](), 409, false);
  });
});

/** Requests the server refuses for a rule of one field, by operationId: the document must state each rule. */
const REFUSED_BY_RULE: [rule: string, operationId: string, body: () => Body | Promise<Body>][] = [
  ['an email address', 'createContact', () => ({ email: 'not an address' })],
  ['an ISO 4217 currency', 'createDeal', () => ({ title: 'Dollars', currency: 'DOLLARS' })],
  [
    'an https receipt',
    'createExpense',
    async () => ({ ...(await expenseBody()), receiptUrl: 'http://receipts.example.test/1.pdf' }),
  ],
  ['known event types', 'createWebhook', () => ({ url: `${receiver.url}/rule`, events: ['deal.signed'] })],
  ['a deal starts open', 'createDeal', () => ({ title: 'Won already', currency: 'EUR', stage: 'won' })],
  ['3 decimals of quantity', 'createInvoice', () => invoiceWith({ quantity: 1.2345 })],
  [
    "a member's scopes",
    'createUser',
    () => ({
      email: `rule-${++counter}@example.test`,
      role: 'member',
      scopes: null,
      password: 'a long enough password',
    }),
  ],
];

function expenseBody(): Promise<Body> {
  return bodyOf(declaredAt('/finance/expenses')!);
}

async function invoiceWith(line: Body): Promise<Body> {
  const body: Body = await bodyOf(declaredAt('/finance/invoices')!);
  return { ...body, lines: [{ ...body.lines[0], ...line }] };
}

describe('a rule of one field: the document states what the server refuses', () => {
  it.each(REFUSED_BY_RULE)('%s (%s)', async (_rule, operationId, body) => {
    const operation = OPERATIONS.find((candidate) => candidate.operationId === operationId)!;
    expect(operation, operationId).toBeDefined();
    const res = await via(operation.method.toUpperCase(), operation.template, { key: admin, body: await body() });
    expectAnswer(operation, res, 400, true);
  });
});

describe('coverage', () => {
  it('drove every operation the served document lists, with its success and each error it lists that a request can reach', () => {
    const served = operationsOf(servedDocument);
    expect(served.map((op) => op.operationId).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
    const missing: Record<string, number[]> = {};
    for (const operation of served) {
      const expected = Object.keys(operation.spec.responses)
        .map(Number)
        .filter((status) => (status >= 200 && status < 300) || DRIVEN_ERRORS.includes(status));
      const seen = driven.get(operation.operationId) ?? new Set<number>();
      const notSeen = expected.filter((status) => !seen.has(status));
      if (notSeen.length) missing[`${operation.method.toUpperCase()} ${operation.template}`] = notSeen;
    }
    expect(missing).toEqual({});
  });
});
