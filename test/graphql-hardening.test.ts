// /graphql under hostile input: limits that refuse an operation before it runs
// (for every caller, introspection included), request-level errors with their
// own codes and statuses instead of INTERNAL_ERROR (and not logged as faults),
// and one refused request that leaves everyone else's requests alone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  parse,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { ROUTES } from '../src/graphql/modules.js';
import { getSchema } from '../src/graphql/schema.js';
import { checkOperation, type GraphQLLimits } from '../src/http/graphql-limits.js';
import { databaseUrls } from '../src/db/server.js';
import { createPlatform } from '../src/server.js';
import { createTestDatabase } from './support/database.js';
import { useServer, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
const DEFAULTS = parseConfig({}).graphqlLimits;

let keyA: string;
let keyB: string;
let contactB: string;

beforeAll(async () => {
  const a = await server.org('Attacker');
  keyA = await a.key(['crm:read', 'crm:write']);
  const b = await server.org('Bystander');
  keyB = await b.key(['crm:read', 'crm:write']);
  const created = await server.rest('POST', '/v1/crm/contacts', {
    key: keyB,
    body: { email: 'bystander@example.com' },
  });
  expect(created.status, created.text).toBe(201);
  contactB = created.body.id;
});

const aliases = (count: number, field: (i: number) => string) =>
  `{ ${Array.from({ length: count }, (_, i) => field(i)).join(' ')} }`;
const EVENTS_3000 = aliases(3000, (i) => `e${i}: events(limit: 100) { data { id data } }`);
const SCHEMA_5000 = aliases(5000, (i) => `s${i}: __schema { types { name fields { name type { name } } } }`);
const NESTED_5000 = `{ ${'a { '.repeat(5000)}b${' }'.repeat(5000)} }`;
const FRAGMENT_BOMB = [
  'query { ...F0 }',
  ...Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`),
  'fragment F20 on Query { __typename }',
].join('\n');
const FULL_INTROSPECTION = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
});
const CONTACT_PAGE =
  'data { id firstName lastName email company phone tags createdAt updatedAt } pagination { page limit total pages }';

async function post(body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) {
  const started = performance.now();
  const res = await server.rest('POST', '/graphql', { ...options, body });
  return { ...res, ms: performance.now() - started };
}

/** A refusal: the status, one error with the code, no data, nothing internal. */
function expectRefused(res: TestResponse, status: number, code: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.data, res.text).toBeUndefined();
  expect(res.body.errors.length, res.text).toBeGreaterThan(0);
  for (const error of res.body.errors) expect(error.extensions.code, res.text).toBe(code);
  if (message) expect(res.body.errors.map((e: { message: string }) => e.message).join(' | ')).toMatch(message);
  expect(res.text).not.toMatch(/INTERNAL_ERROR|stacktrace|\.ts:\d+|node_modules/);
}

/**
 * Sends the query a few times, expects each refused with 400 and the code (VALIDATION_ERROR, or
 * Apollo's GRAPHQL_PARSE_FAILED for what the parser stops), and prints the times.
 */
async function refusedRepeatedly(
  label: string,
  query: string,
  key: string | undefined,
  message: RegExp,
  code = 'VALIDATION_ERROR',
) {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await post({ query }, { key });
    expectRefused(res, 400, code, message);
    times.push(res.ms);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: refused in ${times.map((t) => t.toFixed(0)).join(', ')} ms (sorted)`);
}

describe('limits on every operation, before it runs', () => {
  it('refuses a 3,000-alias events(limit:100) document of an authenticated caller at once', async () => {
    expect(EVENTS_3000.length).toBeGreaterThan(100_000);
    await refusedRepeatedly(
      `3,000 aliases (${EVENTS_3000.length} bytes), authenticated`,
      EVENTS_3000,
      keyA,
      /^Document size limit of 65536 bytes exceeded, found 139893\.$/,
    );
  });

  it('refuses 5,000 aliased __schema selections without credentials at once', async () => {
    await refusedRepeatedly(
      `5,000 __schema aliases (${SCHEMA_5000.length} bytes), anonymous`,
      SCHEMA_5000,
      undefined,
      /^Document size limit/,
    );
  });

  it('stops parsing at the token limit: the alias attack made small enough to pass the size limit', async () => {
    const compact = aliases(1400, (i) => `e${i}:events(limit:100){data{id data}}`);
    expect(Buffer.byteLength(compact)).toBeLessThan(DEFAULTS.maxDocumentBytes);
    await refusedRepeatedly(
      `1,400 aliases (${compact.length} bytes), authenticated`,
      compact,
      keyA,
      /^Token limit of 1000 exceeded/,
      'GRAPHQL_PARSE_FAILED',
    );
  });

  it('refuses a document nested 5,000 deep at the token limit, with no stack overflow', async () => {
    await refusedRepeatedly(
      'nested 5,000 deep, anonymous',
      NESTED_5000,
      undefined,
      /^Token limit of 1000 exceeded/,
      'GRAPHQL_PARSE_FAILED',
    );
  });

  it('refuses depth beyond the limit, introspection included, and within the token limit', async () => {
    const deep = `{ __schema { types { fields { type { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } } } } }`;
    expectRefused(
      await post({ query: deep }),
      400,
      'GRAPHQL_VALIDATION_FAILED',
      /^Query depth limit of 20 exceeded, found 25\.$/,
    );
    // As deep as the tokens allow (300 levels): refused by depth, not by a stack overflow.
    const nested = `{ ${'a { '.repeat(300)}b${' }'.repeat(300)} }`;
    expectRefused(
      await post({ query: nested }),
      400,
      'GRAPHQL_VALIDATION_FAILED',
      /Query depth limit of 20 exceeded, found 301/,
    );
  });

  it('refuses more aliases than the limit, and allows the limit', async () => {
    const over = aliases(16, (i) => `a${i}: __schema { description }`);
    expectRefused(
      await post({ query: over }),
      400,
      'GRAPHQL_VALIDATION_FAILED',
      /^Aliases limit of 15 exceeded, found 16\.$/,
    );
    const at = await post({ query: aliases(15, (i) => `a${i}: __schema { description }`) });
    expect(at.status, at.text).toBe(200);
    expect(Object.keys(at.body.data)).toHaveLength(15);
  });

  it('refuses a fragment expansion to 2^20 selections after counting the field limit only', async () => {
    await refusedRepeatedly(
      'fragments expanding to 2^20, anonymous',
      FRAGMENT_BOMB,
      undefined,
      /^Field limit of 1000 exceeded \(fragments expanded\)\.$/,
    );
  });

  it('counts lists by their limit, from literals and variables, with or without credentials', async () => {
    // 14 pages of 100 contacts with their first deal cost 14 x (1 + 100 x 25) = 35,014: over 30,000 (the deals a page: data costs 1 too).
    const page = CONTACT_PAGE.replace(
      'updatedAt }',
      'updatedAt deals(limit: 1) { data { id title amount currency stage closedAt createdAt updatedAt } } }',
    );
    const pages = (limit?: string) =>
      aliases(14, (i) => `c${i}: contacts${limit ? `(limit: ${limit})` : ''} { ${page} }`);
    for (const key of [undefined, keyA]) {
      expectRefused(
        await post({ query: pages('100') }, { key }),
        400,
        'VALIDATION_ERROR',
        /^Query cost limit of 30000 exceeded, found 35014 /,
      );
      const variable = `query ($n: Int) ${pages('$n')}`;
      expectRefused(
        await post({ query: variable, variables: { n: 100 } }, { key }),
        400,
        'VALIDATION_ERROR',
        /found 35014/,
      );
      // The same document with 10 per page (or the default 50) runs.
      const small = await post({ query: variable, variables: { n: 10 } }, { key: keyA });
      expect(small.status, small.text).toBe(200);
      expect(small.body.data.c0.pagination.limit).toBe(10);
    }
    const byDefault = await post({ query: pages() }, { key: keyA });
    expect(byDefault.status, byDefault.text).toBe(200);
  });

  it('counts introspection in the cost: the full introspection runs once, not three times over', async () => {
    const full = FULL_INTROSPECTION;
    const fragments = full.slice(full.indexOf('fragment '));
    const times = (n: number) =>
      `query { ${Array.from({ length: n }, (_, i) => `s${i}: __schema { types { ...FullType } }`).join(' ')} } ${fragments}`;
    const once = await post({ query: times(1) });
    expect(once.status, once.text).toBe(200);
    expectRefused(await post({ query: times(3) }), 400, 'VALIDATION_ERROR', /^Query cost limit of 30000 exceeded/);
    // Nesting introspection is refused by graphql-js's own rule.
    const nested = `{ __schema { types { ${'fields { type { ofType { '.repeat(3)}name${' } } }'.repeat(3)} } } }`;
    expectRefused(
      await post({ query: nested }),
      400,
      'GRAPHQL_VALIDATION_FAILED',
      /Maximum introspection depth exceeded/,
    );
  });

  it('lets the full introspection query of GraphQL tools through, without credentials', async () => {
    const res = await post({ query: FULL_INTROSPECTION });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.__schema.types.length).toBeGreaterThan(10);
  });

  it('applies the limits to GET queries too', async () => {
    // Aliases of __typename are free (GraphQL Armor's allow list).
    const free = encodeURIComponent(aliases(16, (i) => `a${i}: __typename`));
    const res = await server.rest('GET', `/graphql?query=${free}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(res.status, res.text).toBe(200);
    const over = encodeURIComponent(aliases(16, (i) => `a${i}: __schema { description }`));
    const refused = await server.rest('GET', `/graphql?query=${over}`, {
      headers: { 'apollo-require-preflight': '1' },
    });
    expectRefused(refused, 400, 'GRAPHQL_VALIDATION_FAILED', /Aliases limit/);
  });
});

describe('the cost of what Apollo Client sends', () => {
  // Apollo Client adds __typename to every selection set (addTypenameToDocument).
  const withTypename = (source: string) => source.replace(/\{(?!\s*\})/g, '{ __typename ');

  it('counts __typename as nothing, so it hides no data cost', async () => {
    const schema = await getSchema();
    const page = `{ contacts(limit: 100) { ${CONTACT_PAGE} } }`;
    const plain = checkOperation(schema, page, DEFAULTS);
    expect(plain.refusals).toEqual([]);
    expect(checkOperation(schema, withTypename(page), DEFAULTS)).toEqual(plain);
    // 14 pages of 100 contacts with their deals cost the same 35,014 with __typename everywhere.
    const contacts = CONTACT_PAGE.replace(
      'updatedAt }',
      'updatedAt deals(limit: 1) { data { id title amount currency stage closedAt createdAt updatedAt } } }',
    );
    const pages = aliases(14, (i) => `c${i}: contacts(limit: 100) { ${contacts} }`);
    expect(checkOperation(schema, withTypename(pages), DEFAULTS).refusals).toEqual([
      expect.stringMatching(/^Query cost limit of 30000 exceeded, found 35014 /),
    ]);
  });

  it('costs one introspection at most half the limit, whatever the schema, so two fit and three do not', async () => {
    const schema = await getSchema();
    const apollo = withTypename(getIntrospectionQuery());
    expect(checkOperation(schema, apollo, DEFAULTS)).toEqual({ refusals: [], cost: DEFAULTS.maxCost / 2 });
    const strict = { ...DEFAULTS, maxCost: 200 };
    expect(checkOperation(schema, apollo, strict)).toEqual({ refusals: [], cost: 100 });
    const schemas = (n: number) =>
      aliases(n, (i) => `s${i}: __schema { types { name fields { name args { name } } } }`);
    expect(checkOperation(schema, schemas(2), strict)).toEqual({ refusals: [], cost: 200 });
    expect(checkOperation(schema, schemas(3), strict).refusals).toEqual([
      expect.stringMatching(/^Query cost limit of 200 exceeded, found 300 /),
    ]);
  });
});

describe('limits as settings', () => {
  it('has documented defaults and bounds', () => {
    expect(DEFAULTS).toEqual({
      maxDocumentBytes: 65_536,
      maxTokens: 1_000,
      maxDepth: 20,
      maxAliases: 15,
      maxFields: 1_000,
      maxCost: 30_000,
    });
    expect(parseConfig({ GRAPHQL_MAX_COST: '500', GRAPHQL_MAX_DEPTH: '5' }).graphqlLimits).toMatchObject({
      maxCost: 500,
      maxDepth: 5,
    });
    // Past 2,000 tokens a document could nest deep enough to overflow graphql-js's recursive parser.
    expect(() => parseConfig({ GRAPHQL_MAX_TOKENS: '5000' })).toThrow(/GRAPHQL_MAX_TOKENS/);
  });

  describe('on a server with lower limits', () => {
    const strict = useServer({ GRAPHQL_MAX_ALIASES: '1', GRAPHQL_MAX_COST: '200' });
    it('refuses by them', async () => {
      const two = await strict.gql('{ a: __typename b: __schema { description } c: __schema { description } }');
      expect(two.status).toBe(400);
      expect(two.errors?.[0]?.message).toBe('Aliases limit of 1 exceeded, found 2.');
      const costly = await strict.gql(
        '{ contacts(limit: 20) { data { id firstName lastName email company phone tags createdAt updatedAt } } }',
      );
      expect(costly.status).toBe(400);
      expect(costly.errors?.[0]?.message).toMatch(/^Query cost limit of 200 exceeded, found 201 /);
    });
  });
});

/** Values for an operation's variables that its types accept, with lists at their largest page. */
function sampleVariables(schema: GraphQLSchema, source: string): Record<string, unknown> {
  const sample = (type: GraphQLInputType, name: string): unknown => {
    if (isNonNullType(type)) return sample(type.ofType, name);
    if (isListType(type)) return [sample(type.ofType, name)];
    if (isInputObjectType(type)) {
      return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, sample(f.type, f.name)]));
    }
    // A variable names an enum value as the document does (its name, not its internal value).
    if (isEnumType(type)) return type.getValues()[0]!.name;
    if (isScalarType(type) && ['Int', 'SafeInt', 'Float'].includes(type.name)) return name === 'limit' ? 100 : 1;
    if (isScalarType(type) && type.name === 'Boolean') return true;
    if (isScalarType(type) && type.name === 'JSONObject') return {};
    if (isScalarType(type) && type.name === 'DateTime') return '2100-01-01T00:00:00.000Z';
    if (isScalarType(type) && type.name === 'Date') return '2100-01-01';
    return name === 'expiresAt' ? '2100-01-01T00:00:00.000Z' : 'x';
  };
  const operation = parse(source).definitions[0] as OperationDefinitionNode;
  return Object.fromEntries(
    (operation.variableDefinitions ?? []).map((d) => [
      d.variable.name.value,
      sample(typeFromAST(schema, d.type as never) as GraphQLInputType, d.variable.name.value),
    ]),
  );
}

describe('the REST facade', () => {
  it('runs only operations that pass every limit at half its default', async () => {
    const schema = await getSchema();
    const half: GraphQLLimits = {
      maxDocumentBytes: DEFAULTS.maxDocumentBytes / 2,
      maxTokens: DEFAULTS.maxTokens / 2,
      maxDepth: DEFAULTS.maxDepth / 2,
      maxAliases: DEFAULTS.maxAliases / 2,
      maxFields: DEFAULTS.maxFields / 2,
      maxCost: DEFAULTS.maxCost / 2,
    };
    expect(ROUTES.length).toBeGreaterThan(5);
    for (const route of ROUTES) {
      const variables = sampleVariables(schema, route.operation);
      const { refusals, cost } = checkOperation(schema, route.operation, half, variables);
      expect(refusals, `${route.method} ${route.path}`).toEqual([]);
      expect(cost, `${route.method} ${route.path}`).toBeGreaterThan(0);
    }
    // The costliest, a page of 100 contacts, is far below the limit (its pagination's six
    // fields, totalExact and next among them, are counted per item as the estimator counts a list's).
    const contacts = ROUTES.find((r) => r.method === 'get' && r.path === '/crm/contacts')!;
    expect(checkOperation(schema, contacts.operation, DEFAULTS, { limit: 100 }).cost).toBe(1801);
  });
});

// Request-level errors: [what, method, path, options, status, code, message, headers].
type RequestCase = [
  string,
  string,
  string,
  { body?: unknown; headers?: Record<string, string> },
  number,
  string,
  RegExp,
  Record<string, string>?,
];
const PREFLIGHT = { 'apollo-require-preflight': '1' };
const REQUEST_CASES: RequestCase[] = [
  ['a plain GET without a query', 'GET', '/graphql', {}, 400, 'VALIDATION_ERROR', /no "query"/],
  [
    'a GET that CSRF prevention blocks',
    'GET',
    '/graphql?query=%7B__typename%7D',
    {},
    400,
    'VALIDATION_ERROR',
    /Cross-Site Request Forgery/,
  ],
  [
    'a text/plain body',
    'POST',
    '/graphql',
    { body: '{"query":"{__typename}"}', headers: { 'content-type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    /Content-Type: application\/json/,
  ],
  ['an empty object', 'POST', '/graphql', { body: {} }, 400, 'VALIDATION_ERROR', /no "query"/],
  ['a non-string query', 'POST', '/graphql', { body: { query: 5 } }, 400, 'VALIDATION_ERROR', /must be a string/],
  ['a body that is not an object', 'POST', '/graphql', { body: '"x"' }, 400, 'VALIDATION_ERROR', /JSON/],
  [
    'variables that are not an object',
    'POST',
    '/graphql',
    { body: { query: '{__typename}', variables: 'x' } },
    400,
    'VALIDATION_ERROR',
    /variables/,
  ],
  [
    'a batch',
    'POST',
    '/graphql',
    { body: [{ query: '{__typename}' }, { query: '{__typename}' }] },
    400,
    'VALIDATION_ERROR',
    /^Batched requests .* are not supported/,
  ],
  [
    'PUT',
    'PUT',
    '/graphql',
    { body: { query: '{__typename}' } },
    405,
    'METHOD_NOT_ALLOWED',
    /PUT is not allowed/,
    { allow: 'GET, POST' },
  ],
  ['DELETE', 'DELETE', '/graphql', {}, 405, 'METHOD_NOT_ALLOWED', /DELETE is not allowed/, { allow: 'GET, POST' }],
  [
    'a mutation over GET',
    'GET',
    `/graphql?query=${encodeURIComponent('mutation { deleteContact(id: "con_x") }')}`,
    { headers: PREFLIGHT },
    405,
    'METHOD_NOT_ALLOWED',
    /GET requests only support query operations/,
    { allow: 'POST' },
  ],
  [
    'an unknown persisted-query hash',
    'POST',
    '/graphql',
    { body: { extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } } },
    404,
    'NOT_FOUND',
    /^PersistedQueryNotFound$/,
  ],
  [
    'a persisted-query hash that does not match its query',
    'POST',
    '/graphql',
    { body: { query: '{__typename}', extensions: { persistedQuery: { version: 1, sha256Hash: 'b'.repeat(64) } } } },
    400,
    'VALIDATION_ERROR',
    /does not match/,
  ],
  // Apollo's code, which GraphQL clients look for.
  [
    'a syntax error',
    'POST',
    '/graphql',
    { body: { query: '{ contacts {' } },
    400,
    'GRAPHQL_PARSE_FAILED',
    /Syntax Error/,
  ],
];

describe('request-level errors', () => {
  it.each(REQUEST_CASES)(
    '%s: its own status and code',
    async (_what, method, path, options, status, code, message, headers) => {
      const res = await server.rest(method, path, options);
      expectRefused(res, status, code, message);
      for (const [name, value] of Object.entries(headers ?? {})) expect(res.headers.get(name)).toBe(value);
    },
  );

  it('refuses a batch as a whole: none of its operations runs', async () => {
    const create = 'mutation { createContact(input: { email: "batched@example.com" }) { id } }';
    const res = await server.rest('POST', '/graphql', { key: keyA, body: [{ query: create }, { query: create }] });
    expect(res.status).toBe(400);
    const list = await server.rest('GET', '/v1/crm/contacts?email=batched@example.com', { key: keyA });
    expect(list.body.data).toEqual([]);
  });

  it('answers GET queries with a preflight header, and known persisted queries', async () => {
    const get = await server.rest('GET', '/graphql?query=%7B__typename%7D', { headers: PREFLIGHT });
    expect(get.status, get.text).toBe(200);
    expect(get.body.data).toEqual({ __typename: 'Query' });
    const query = '{ __typename }';
    const { createHash } = await import('node:crypto');
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
    const registered = await post({ query, extensions: { persistedQuery } });
    expect(registered.status, registered.text).toBe(200);
    const byHash = await post({ extensions: { persistedQuery } });
    expect(byHash.status, byHash.text).toBe(200);
    expect(byHash.body.data).toEqual({ __typename: 'Query' });
  });
});

describe('what the service logs', () => {
  // A server whose log lines are kept, to see what is logged at level error.
  const lines: { level: number; msg: string }[] = [];
  let url = '';
  let close = async () => {};
  beforeAll(async () => {
    const db = await createTestDatabase();
    const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', DATABASE_URL: db.url });
    const logger = pino(
      { level: 'info', base: undefined },
      { write: (line: string) => void lines.push(JSON.parse(line)) },
    );
    const platform = await createPlatform(config, databaseUrls(db.url), logger);
    const listener = http.createServer(platform.listener);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    close = async () => {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await platform.close();
      await db.drop();
    };
  });
  afterAll(() => close());

  it('logs none of the refusals as an error', async () => {
    const refused: [string, { body?: unknown; headers?: Record<string, string> }][] = [
      ...REQUEST_CASES.map(([, method, path, options]) => [`${method} ${path}`, options] as [string, typeof options]),
      ...[EVENTS_3000, SCHEMA_5000, NESTED_5000, FRAGMENT_BOMB].map(
        (query) => ['POST /graphql', { body: { query } }] as [string, { body: unknown }],
      ),
    ];
    for (const [request, { body, headers = {} }] of refused) {
      const [method, path] = request.split(' ') as [string, string];
      const json = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
      const res = await fetch(url + path, {
        method,
        headers: { ...(json !== undefined && { 'content-type': 'application/json' }), ...headers },
        body: json as string | undefined,
      });
      expect(res.status, request).toBeGreaterThanOrEqual(400);
      expect(res.status, request).toBeLessThan(500);
    }
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('one refused request does not starve the others', () => {
  async function listOfB() {
    const started = performance.now();
    const list = await server.rest('GET', '/v1/crm/contacts', { key: keyB });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([contactB]);
    return performance.now() - started;
  }
  const summary = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
  };

  it("keeps answering another organization's REST requests while the attacks repeat", async () => {
    const quiet: number[] = [];
    for (let i = 0; i < 5; i++) quiet.push(await listOfB());
    const attacks: [string, string | undefined, string][] = [
      [EVENTS_3000, keyA, 'VALIDATION_ERROR'],
      [SCHEMA_5000, undefined, 'VALIDATION_ERROR'],
      [NESTED_5000, undefined, 'GRAPHQL_PARSE_FAILED'],
      [FRAGMENT_BOMB, undefined, 'VALIDATION_ERROR'],
    ];
    const busy: number[] = [];
    for (let round = 0; round < 10; round++) {
      const sent = attacks.map(([query, key]) => post({ query }, { key }));
      busy.push(await listOfB());
      const answers = await Promise.all(sent);
      answers.forEach((attack, i) => expectRefused(attack, 400, attacks[i]![2]));
    }
    console.log(
      `GET /v1/crm/contacts of another organization: alone ${summary(quiet)}; beside 4 attacks a round, ${summary(busy)}`,
    );
  });
});
