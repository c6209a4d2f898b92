// A bounded, seeded, property-based run over every operation of the OpenAPI
// document the server serves, and over /graphql (generators in
// support/fuzz.ts and support/fuzz-graphql.ts), a few requests at a time. For
// every answer:
//
// - no 5xx, and an answer within FUZZ_SLOW_MS (2 s by default);
// - REST: anything but a 2xx is exactly the envelope {error: {code, message,
//   field?, retryAfter?}} with a documented code; a 2xx of a documented operation is JSON
//   (or a file of a type the document lists for it, a PDF);
// - GraphQL: every error carries a documented extensions.code that is not a fault of
//   ours (INTERNAL_ERROR, SERVICE_UNAVAILABLE), and a 4xx carries errors;
// - no stack frame, source location, node_modules or Prisma in any body, and no
//   SQL in any error message (unless the request itself held that text, as an
//   answer may quote its input).
//
// The seed is fixed (FUZZ_SEED to change it) and so is the number of runs per
// property (FUZZ_RUNS to raise it). On failure fast-check prints the seed, the
// path and the shrunk requests with the answer; FUZZ_SEED and FUZZ_PATH replay
// that case alone. FUZZ_LOG=file writes a line per request, to see what a run reaches.
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema } from 'graphql';
import { beforeAll, expect, it } from 'vitest';
import { GRAPHQL_DOCUMENT_CODES } from '../src/graphql/errors.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import {
  anyRestRequest,
  concurrently,
  describeRequest,
  restOperations,
  type FuzzRequest,
  type FuzzWorld,
} from './support/fuzz.js';
import { anyGraphQLRequest } from './support/fuzz-graphql.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers and the OpenAPI document are untyped JSON */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
const PATH = process.env.FUZZ_PATH || undefined;
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_500);
const SLOW_MS = Number(process.env.FUZZ_SLOW_MS ?? 2_000);
/** A file to append one line per request to (status, time, request, error message): to see what the runs reach. */
const LOG = process.env.FUZZ_LOG || undefined;
/** A request still unanswered this long is abandoned and reported as a hang. */
const HANG_MS = SLOW_MS + 5_000;
/** Shrinking a slow answer can take long: it stops here, and the run fails with what it has. */
const TIME_LIMIT_MS = 60_000 + RUNS * 250;

// Rate limits so high that no 429 hides an answer.
const server = useServer({ RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_UNAUTHENTICATED_MAX: '1000000000' });

let doc: any;
/** The path of the document's server URL: `/v1`. */
let prefix: string;
let schema: GraphQLSchema;
let world: FuzzWorld;
let codes: string[];

// ---------------------------------------------------------------------------
// Setup: two organizations, keys of every kind, records to aim at.

const bearer = (key: string) => `Bearer ${key}`;

async function call(method: string, path: string, key: string, body?: unknown): Promise<any> {
  const res = await server.rest(method, path, { key, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/**
 * Records of every kind the fuzzer can aim at, created as a client would: enough
 * contacts and deals that its deletes leave some for its updates.
 */
async function seed(key: string, tag: string, { records, people }: { records: number; people: number }): Promise<void> {
  for (let i = 0; i < records; i++) {
    const contact = await call('POST', `${prefix}/crm/contacts`, key, {
      email: `seed-${tag}-${i}@example.com`,
      firstName: `First ${i}`,
      company: i % 2 ? 'Acme' : null,
      tags: ['seed', `t${i}`],
    });
    await call('POST', `${prefix}/crm/deals`, key, {
      title: `Deal ${tag} ${i}`,
      currency: 'USD',
      amount: 1000 * i,
      contactId: i % 3 ? contact.id : null,
      stage: i % 2 ? 'qualified' : 'lead',
    });
    // HR and finance: an employee with attendance and leave, an expense, an invoice to the contact, a payment.
    const employee = await call('POST', `${prefix}/hr/employees`, key, {
      firstName: `First ${i}`,
      lastName: `Last ${tag}`,
      email: `employee-${tag}-${i}@example.com`,
      salary: 5_000_000 + i,
      currency: 'USD',
    });
    const attendance = await call('POST', `${prefix}/hr/attendance`, key, { employeeId: employee.id });
    if (i % 2) await call('POST', `${prefix}/hr/attendance/${attendance.id}/clock-out`, key, {});
    await call('POST', `${prefix}/hr/leave-requests`, key, {
      employeeId: employee.id,
      type: 'vacation',
      from: '2027-01-04',
      to: '2027-01-08',
    });
    await call('POST', `${prefix}/finance/expenses`, key, {
      employeeId: employee.id,
      amount: 100 + i,
      currency: 'EUR',
      category: 'travel',
      incurredOn: '2026-03-14',
    });
    const invoice = await call('POST', `${prefix}/finance/invoices`, key, {
      contactId: contact.id,
      currency: 'USD',
      lines: [{ description: `Work ${i}`, quantity: 2, unitAmount: 5_000 }],
    });
    if (i % 2) await call('POST', `${prefix}/finance/invoices/${invoice.id}/open`, key, {});
    await call('POST', `${prefix}/finance/payments`, key, { amount: 100 + i, currency: 'USD', method: 'card' });
  }
  await call('POST', `${prefix}/hr/payroll-runs`, key, { periodStart: '2026-01-01', periodEnd: '2026-01-31' });
  for (let i = 0; i < people; i++) {
    await call('POST', `${prefix}/users`, key, {
      email: `user-${tag}-${i}@example.com`,
      role: 'member',
      scopes: ['crm:read'],
      password: 'correct horse battery',
    });
    await call('POST', `${prefix}/api-keys`, key, { name: `target ${tag} ${i}`, scopes: ['crm:read'] });
  }
}

/** The ids each list operation of the document shows to `key`, by collection path. */
async function idsListed(key: string): Promise<Record<string, string[]>> {
  const ids: Record<string, string[]> = {};
  for (const operation of restOperations(doc)) {
    if (operation.method !== 'GET' || operation.path.includes('{')) continue;
    const res = await server.rest('GET', `${prefix}${operation.path}?limit=100`, { key });
    if (res.status === 200 && Array.isArray(res.body?.data)) {
      ids[operation.path] = res.body.data
        .map((item: { id?: unknown }) => item.id)
        .filter((id: unknown) => typeof id === 'string');
    }
  }
  return ids;
}

/** Every `enum` of the document: words a field may well expect. */
function enumWords(node: unknown, words = new Set<string>()): string[] {
  if (Array.isArray(node)) node.forEach((item) => enumWords(item, words));
  else if (node && typeof node === 'object') {
    for (const [name, value] of Object.entries(node)) {
      if (name === 'enum' && Array.isArray(value)) value.forEach((word) => typeof word === 'string' && words.add(word));
      else enumWords(value, words);
    }
  }
  return [...words];
}

beforeAll(async () => {
  doc = (await server.rest('GET', '/v1/openapi.json')).body;
  prefix = new URL(doc.servers[0].url).pathname.replace(/\/$/, '');
  codes = doc.components.schemas.Error.properties.error.properties.code.enum;

  const org: TestOrg = await server.org('Fuzzed');
  const other: TestOrg = await server.org('Other');
  const admin = await org.key(['admin']);
  const otherAdmin = await other.key(['admin']);
  // Mostly keys that get past authentication, to reach the operations' own checks.
  const credentials: FuzzWorld['credentials'] = [
    { authorization: bearer(admin), weight: 10 },
    { authorization: bearer(await org.key(['crm:read', 'crm:write'])), weight: 6 },
    { authorization: bearer(await org.key(['crm:read'])), weight: 2 },
    { authorization: bearer(await org.key(['hr:read'])), weight: 1 },
    { authorization: bearer(otherAdmin), weight: 2 },
    { authorization: bearer(await org.key(['admin'], { expiresAt: new Date(Date.now() - 60_000) })), weight: 1 },
    { authorization: undefined, weight: 1 },
  ];
  // The keys the fuzzer sends are not among its targets: rotating or revoking them would lock it out.
  const keysOf = async (key: string) => (await idsListed(key))['/api-keys'] ?? [];
  const ownKeys = new Set([...(await keysOf(admin)), ...(await keysOf(otherAdmin))]);
  const revoked = await call('POST', `${prefix}/api-keys`, admin, { name: 'revoked', scopes: ['admin'] });
  await call('POST', `${prefix}/api-keys/${revoked.id}/revoke`, admin);
  credentials.push({ authorization: bearer(revoked.key), weight: 1 });

  await seed(admin, 'a', { records: 20, people: 5 });
  await seed(otherAdmin, 'b', { records: 2, people: 1 });
  const ids = await idsListed(admin);
  for (const [path, list] of Object.entries(ids)) ids[path] = list.filter((id) => !ownKeys.has(id));
  const foreignIds = Object.values(await idsListed(otherAdmin))
    .flat()
    .filter((id) => !ownKeys.has(id));
  world = { credentials, ids, foreignIds, words: enumWords(doc) };

  const introspection = await server.gql(getIntrospectionQuery(), {}, { key: admin });
  expect(introspection.errors).toBeUndefined();
  schema = buildClientSchema(introspection.data);
});

// ---------------------------------------------------------------------------
// Sending, and what every answer must be.

interface Answer {
  status: number;
  ms: number;
  headers: Headers;
  text: string;
  body: any;
}

async function send(request: FuzzRequest): Promise<Answer> {
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(server.url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(HANG_MS),
    });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new Error(
      `no answer: ${String(error)}${cause ? ` (${String(cause)})` : ''}\n--- request\n${describeRequest(request)}`,
    );
  }
  const ms = Math.round(performance.now() - started);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, ms, headers: response.headers, text, body };
}

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What no answer may show, anywhere in its body. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\]]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/],
  ['a stack frame', /\bat (?:file:\/\/|node:|\/)\S+:\d+:\d+/],
  ['a source location', /\.[cm]?[jt]s:\d+/],
  ['node_modules', /node_modules/],
  ['Prisma', /prisma/i],
];

/** What no error message may show: SQL and PostgreSQL's own words. */
const SQL: RegExp[] = [
  /\bselect\s[^.]*?\bfrom\s/i,
  /\bselect (?:pg_|count\(|1\b|\*)/i,
  /\binsert\s+into\b/i,
  /\bdelete\s+from\b/i,
  /\bupdate\s+"?\w+"?\s+set\b/i,
  /syntax error at/i,
  /violates [\w ]*constraint/i,
  /\brelation "/i,
  /duplicate key value/i,
  /\bSQLSTATE\b/,
];

/** The request as text, also percent-decoded: an answer may quote it, and what it quotes is no leak. */
function echoOf(request: FuzzRequest): string {
  const decoded = request.path.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
  return [request.path, decoded, ...Object.values(request.headers), request.bodyText ?? ''].join('\n');
}

function leaks(request: FuzzRequest, answer: Answer, messages: unknown[]): string[] {
  const echo = echoOf(request);
  const found = LEAKS.filter(([, pattern]) => pattern.test(answer.text) && !pattern.test(echo)).map(
    ([what]) => `the body shows ${what}`,
  );
  const texts = messages.filter((message): message is string => typeof message === 'string');
  if (SQL.some((pattern) => texts.some((text) => pattern.test(text)) && !pattern.test(echo)))
    found.push('an error message shows SQL');
  return found;
}

/** Why `body` is not exactly {error: {code, message, field?, retryAfter?}} with a documented code, if it is not. */
function notAnEnvelope(body: unknown): string | undefined {
  if (!isObject(body) || Object.keys(body).join() !== 'error' || !isObject(body.error))
    return 'the body is not {"error": {...}}';
  const error = body.error;
  const extra = Object.keys(error).filter((name) => !['code', 'message', 'field', 'retryAfter'].includes(name));
  if (extra.length) return `the error has members beyond the envelope's: ${extra.join(', ')}`;
  if (!codes.includes(error.code)) return `the error code ${JSON.stringify(error.code)} is not documented`;
  if (typeof error.message !== 'string' || !error.message) return 'the error has no message';
  if ('field' in error && typeof error.field !== 'string') return 'the error field is not a string';
  if ('retryAfter' in error && !Number.isInteger(error.retryAfter)) return 'retryAfter is not an integer';
  return undefined;
}

const isJson = (answer: Answer) => /^application\/(?:[\w.+-]+\+)?json\b/.test(answer.headers.get('content-type') ?? '');

/** The media types the document lists for a 2xx of `operation` ("GET /path"): JSON, or a file's (a PDF). */
function documentedTypes(operation: string, status: number): string[] {
  const [method, path] = operation.split(' ');
  const responses = doc.paths?.[path!]?.[method!.toLowerCase()]?.responses ?? {};
  return Object.keys(responses[String(status)]?.content ?? {});
}

/** A 2xx in a documented file type (a PDF download), not JSON. */
function isDocumentedFile(operation: string, answer: Answer): boolean {
  const type = answer.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  return type !== 'application/json' && documentedTypes(operation, answer.status).includes(type);
}

function restProblems(request: FuzzRequest, answer: Answer): string[] {
  const problems: string[] = [];
  const hasBody = request.method !== 'HEAD';
  if (answer.status >= 300 && hasBody) {
    const why = notAnEnvelope(answer.body);
    if (why) problems.push(why);
    else if (!isJson(answer)) problems.push(`the envelope is sent as ${answer.headers.get('content-type')}`);
  }
  if (answer.status < 300 && hasBody && request.operation) {
    const fileOk = answer.status !== 204 && isDocumentedFile(request.operation, answer);
    if (!fileOk && (answer.status === 204 ? answer.text !== '' : answer.body === undefined || !isJson(answer)))
      problems.push(`a ${answer.status} of ${request.operation} is not JSON`);
  }
  const error = answer.body?.error;
  return [...problems, ...leaks(request, answer, [error?.message, error?.field])];
}

/** A fault of the service, in a GraphQL error. */
const FAULTS = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

function graphQLProblems(request: FuzzRequest, answer: Answer): string[] {
  if (request.method === 'HEAD') return [];
  const problems: string[] = [];
  const body = answer.body;
  // Node's HTTP parser answers before any route, in the REST envelope, and closes the connection.
  if (isObject(body) && 'error' in body && answer.headers.get('connection') === 'close') {
    const why = notAnEnvelope(body);
    return [...(why ? [why] : []), ...leaks(request, answer, [body.error?.message])];
  }
  // Apollo's landing page, for a browser's GET outside production (docs/decisions.md).
  const landingPage =
    request.method === 'GET' &&
    (request.headers.accept ?? '').includes('text/html') &&
    (answer.headers.get('content-type') ?? '').startsWith('text/html');
  if (landingPage)
    return answer.status === 200 ? leaks(request, answer, []) : [`the landing page is a ${answer.status}`];
  if (!isObject(body) || !('data' in body || 'errors' in body)) problems.push('the body is not a GraphQL response');
  else if (!isJson(answer)) problems.push(`the answer is sent as ${answer.headers.get('content-type')}`);
  const errors: unknown = body?.errors;
  if (errors !== undefined && (!Array.isArray(errors) || !errors.length))
    problems.push('errors is not a list of errors');
  const list: any[] = Array.isArray(errors) ? errors : [];
  for (const error of list) {
    const code = error?.extensions?.code;
    if (typeof error?.message !== 'string') problems.push('an error has no message');
    // The REST codes, and Apollo's for a document that does not parse or validate (README).
    if (!codes.includes(code) && !(GRAPHQL_DOCUMENT_CODES as readonly string[]).includes(code))
      problems.push(`an error has extensions.code ${JSON.stringify(code)}, not a documented one`);
    else if (FAULTS.includes(code)) problems.push(`an error is ${code}`);
  }
  if (answer.status >= 400 && !list.length) problems.push(`a ${answer.status} without errors`);
  return [
    ...problems,
    ...leaks(
      request,
      answer,
      list.map((error) => error?.message),
    ),
  ];
}

/** Sends the request, checks the answer, counts its status; throws what is wrong with the answer. */
async function check(kind: 'rest' | 'graphql', request: FuzzRequest, statuses: Map<number, number>): Promise<Answer> {
  const answer = await send(request);
  if (LOG) {
    const message = answer.body?.error?.message ?? answer.body?.errors?.[0]?.message ?? '';
    appendFileSync(
      LOG,
      `${kind} ${answer.status} ${answer.ms}ms ${request.method} ${JSON.stringify(request.path.slice(0, 100))} ${JSON.stringify(String(message).slice(0, 150))}\n`,
    );
  }
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const problems = [
    ...(answer.status >= 500 ? [`status ${answer.status}`] : []),
    ...(answer.ms > SLOW_MS ? [`answered in ${answer.ms} ms (the bound is ${SLOW_MS} ms)`] : []),
    ...(kind === 'rest' ? restProblems(request, answer) : graphQLProblems(request, answer)),
  ];
  if (problems.length) {
    const shown = answer.text.length > 2_000 ? `${answer.text.slice(0, 2_000)}…` : answer.text;
    throw new Error(
      `${problems.join('; ')}\n--- request\n${describeRequest(request)}\n--- answer: ${answer.status} in ${answer.ms} ms\n${shown}`,
    );
  }
  return answer;
}

/** Sends the requests at once and checks every answer; throws the first problem once all are in. */
async function checkAll(
  kind: 'rest' | 'graphql',
  requests: FuzzRequest[],
  statuses: Map<number, number>,
  seen: (request: FuzzRequest, answer: Answer) => void,
): Promise<void> {
  const results = await Promise.allSettled(requests.map((request) => check(kind, request, statuses)));
  results.forEach((result, i) => result.status === 'fulfilled' && seen(requests[i]!, result.value));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

function assertOptions(): fc.Parameters<unknown> {
  return {
    seed: SEED,
    path: PATH,
    numRuns: RUNS,
    includeErrorInReport: true,
    plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })],
  };
}

const summary = (statuses: Map<number, number>) =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

// ---------------------------------------------------------------------------
// The properties.

it(
  'answers every operation of the OpenAPI document, however asked, within bounds and in the envelope',
  async () => {
    const statuses = new Map<number, number>();
    const operations = new Set<string>();
    await fc.assert(
      fc.asyncProperty(concurrently(anyRestRequest(doc, world)), (requests) =>
        checkAll('rest', requests, statuses, (request, answer) => {
          if (request.operation && answer.status < 300) operations.add(request.operation);
        }),
      ),
      assertOptions(),
    );
    const documented = restOperations(doc).map((operation) => `${operation.method} ${operation.path}`);
    const missed = documented.filter((operation) => !operations.has(operation));
    console.info(
      `REST fuzz (seed ${SEED}, ${RUNS} runs): ${summary(statuses)}; ` +
        `a 2xx from ${operations.size} of ${documented.length} operations${missed.length ? ` (not ${missed.join(', ')})` : ''}`,
    );
    // Not a fuzzer of 401s only: the happy path of most operations was reached too.
    expect(operations.size).toBeGreaterThanOrEqual(documented.length / 2);
  },
  TIME_LIMIT_MS + 30_000,
);

it(
  'answers any request to /graphql within bounds, with a documented code on every error',
  async () => {
    const statuses = new Map<number, number>();
    let withData = 0;
    await fc.assert(
      fc.asyncProperty(concurrently(anyGraphQLRequest(schema, world)), (requests) =>
        checkAll('graphql', requests, statuses, (_request, answer) => {
          if (isObject(answer.body?.data) && !answer.body.errors) withData++;
        }),
      ),
      assertOptions(),
    );
    console.info(
      `GraphQL fuzz (seed ${SEED}, ${RUNS} runs): ${summary(statuses)}, ${withData} answers with data and no error`,
    );
    expect(withData).toBeGreaterThan(RUNS / 20);
  },
  TIME_LIMIT_MS + 30_000,
);
