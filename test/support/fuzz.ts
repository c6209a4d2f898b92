// Generators for test/fuzz.test.ts: HTTP requests to every operation of the
// service's OpenAPI document, mostly wrong on purpose. What they pick from (keys,
// record ids, the words of the document's enums) is a FuzzWorld the test builds
// against its live server, so a route added to the document is fuzzed with no
// change here. The GraphQL documents are in fuzz-graphql.ts.
//
// A generated FuzzRequest is concrete (ids resolved, body encoded): what fast-check
// prints for a counterexample can be replayed as it is.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI and JSON Schema are untyped JSON here */

export interface FuzzRequest {
  method: string;
  /** Path and query string; fetch percent-encodes what may not stand in a URL. */
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  /** The body as text before any Content-Encoding: what the server may quote back. */
  bodyText?: string;
  /** `GET /crm/contacts/{id}` when the request is the documented operation's own method. */
  operation?: string;
}

export interface FuzzWorld {
  /** Authorization header values (undefined: none), each picked `weight` times in their sum. */
  credentials: { authorization: string | undefined; weight: number }[];
  /** Ids of the fuzzed organization's records by collection path (`/crm/contacts`). */
  ids: Record<string, string[]>;
  /** Ids of another organization's records. */
  foreignIds: string[];
  /** Every enum value of the OpenAPI document (sort keys, stages, roles, scopes, event types). */
  words: string[];
}

/** How fast-check prints a request in a counterexample: readable, bodies cut short. */
export function describeRequest(request: FuzzRequest): string {
  const cut = (text: string, max: number) =>
    text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
  const lines = [`${request.method} ${cut(request.path, 400)}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${cut(value, 200)}`);
  if (request.body) {
    const text = request.bodyText ?? Buffer.from(request.body).toString('latin1');
    lines.push('', `${cut(JSON.stringify(text), 600)} (${request.body.length} bytes sent)`);
  }
  return lines.join('\n');
}

/** Attaches describeRequest as the value's printed form. */
export function printable(request: FuzzRequest): FuzzRequest {
  return Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request) });
}

/** `arbitrary` in `present` of `present + absent` cases, undefined otherwise. */
export function maybe<T>(arbitrary: fc.Arbitrary<T>, present: number, absent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary });
}

/** A length or depth spread evenly over its range: fast-check's bias to small values would keep long and deep inputs rare. */
export const size = (min: number, max: number) => fc.noBias(fc.integer({ min, max }));

// ---------------------------------------------------------------------------
// Values that break things: strings, numbers and JSON of every wrong kind.
// None of them contains what the test looks for in answers (stack frames, SQL,
// Prisma), as a record stored with one would be quoted back in later answers.

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%2e%2e',
  '%2F',
  '..',
  '/',
  '//',
  '\\',
  '?',
  '#',
  '&',
  '=',
  ';',
  '+',
  '\n',
  '\r\n',
  '\t',
  "'",
  '"',
  '`',
  "' OR '1'='1",
  '1) OR (1=1',
  "1' || pg_sleep(3) || '",
  '"; drop table "Contact"; --',
  '$1',
  '${x}',
  '{{x}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '[]',
  '{}',
  '\uFFFD',
  '\uFEFF',
  '\u202E',
  '\uD800',
  '\uDFFF',
  '😀',
  'e\u0301',
  'İ',
  'ß',
  '𝒜',
  '\u0085',
  '\u2028',
];

/** Long runs of one character, up to past the 16 KB header limit and the 64 KB GraphQL document limit. */
const longString = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '%', ' ', '\u0000'), size(200, 70_000))
  .map(([char, n]) => char.repeat(n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: longString },
);

/** Numbers as a query string or a path would carry them. */
const numberText = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    '1e400',
    '2147483647',
    '2147483648',
    '9007199254740993',
    '99999999999999999999999',
    '0x10',
    ' 1',
    '1 ',
    '+1',
    '-0',
    'Infinity',
    'NaN',
    '',
    '01',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
);

/** An object nested `depth` levels (built, not recursed, so any depth is cheap). */
function nested(depth: number, inner: unknown = 1): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** JSON of any type, for a field that expects another. */
export const wrongJson: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      2 ** 31,
      2 ** 53 + 2,
      -(2 ** 63),
      [],
      {},
      '',
      [null],
      { '': null },
      ['a', 1],
    ),
  },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: size(50, 2_000).map((depth) => nested(depth)) },
  { weight: 1, arbitrary: size(50, 2_000).map((n) => Array.from({ length: n }, () => 'x')) },
);

// ---------------------------------------------------------------------------
// The world: credentials and ids.

/** A header value fetch will send: printable ASCII and Latin-1, no controls. */
const headerValue = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      maxLength: 60,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)),
      maxLength: 10,
    }),
  },
  { weight: 1, arbitrary: size(1_000, 20_000).map((n) => 'h'.repeat(n)) },
);

const GARBAGE_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  'Bearer bpk_',
  'Bearer bpk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'Bearer bps_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'Bearer ' + 'a'.repeat(5000),
  'Basic dXNlcjpwYXNzd29yZA==',
  'Token abc',
  'bpk_xxxxxxxx',
  'Bearer bpk_xx yy',
  'Bearer "bpk_xx"',
  'Bearer bpk_%00',
];

/** An Authorization header (or none): the world's keys, as sent or slightly spoiled, or garbage. */
export function authorization(world: FuzzWorld): fc.Arbitrary<string | undefined> {
  const valid = world.credentials.flatMap(({ authorization }) => authorization ?? []);
  return fc.oneof(
    {
      weight: 40,
      arbitrary: fc.oneof(
        ...world.credentials.map(({ authorization, weight }) => ({ weight, arbitrary: fc.constant(authorization) })),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...GARBAGE_AUTHORIZATION) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...valid), fc.constantFrom('lower', 'spaces', 'extra', 'cut', 'prefix'))
        .map(([value, how]) => {
          const token = value.replace(/^Bearer /, '');
          if (how === 'lower') return `bearer ${token}`;
          if (how === 'spaces') return `Bearer    ${token}   `;
          if (how === 'extra') return `Bearer ${token}x`;
          if (how === 'cut') return `Bearer ${token.slice(0, -1)}`;
          return `Bearer bps_${token.slice(4)}`;
        }),
    },
    { weight: 1, arbitrary: headerValue.map((value) => `Bearer ${value}`) },
  );
}

const allIds = (world: FuzzWorld) => Object.values(world.ids).flat();

/** An id as a string field holds it: of the named kind (`contactId`), of another kind, another org's, or not an id. */
export function idValue(world: FuzzWorld, collection: string | undefined): fc.Arbitrary<string> {
  const own = collection ? (world.ids[collection] ?? []) : [];
  const others = allIds(world).filter((id) => !own.includes(id));
  const choices: fc.WeightedArbitrary<string>[] = [{ weight: 2, arbitrary: hostileString }];
  if (own.length) {
    choices.push({ weight: 6, arbitrary: fc.constantFrom(...own) });
    choices.push({
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...own), fc.constantFrom('upper', 'cut', 'longer', 'kind', 'space'))
        .map(([id, how]) => {
          if (how === 'upper') return id.toUpperCase();
          if (how === 'cut') return id.slice(0, -1);
          if (how === 'longer') return `${id}x`;
          if (how === 'kind') return id.replace(/^[a-z]+_/, 'zzz_');
          return ` ${id}`;
        }),
    });
  }
  if (others.length) choices.push({ weight: 2, arbitrary: fc.constantFrom(...others) });
  if (world.foreignIds.length) choices.push({ weight: 1, arbitrary: fc.constantFrom(...world.foreignIds) });
  return fc.oneof(...choices);
}

/** The collection a field such as `contactId` refers to (`/crm/contacts`), by the last segment of its path. */
export function collectionNamed(world: FuzzWorld, field: string): string | undefined {
  const kind = field.replace(/Id$/, '').toLowerCase();
  return Object.keys(world.ids).find((path) => path.split('/').pop()?.replace(/-/g, '') === `${kind}s`);
}

/** A path segment: percent-encoded (when it can be) or raw, for fetch to normalise. */
function segment(value: string, raw: boolean): string {
  if (raw) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return value; // a lone surrogate: fetch sends it as U+FFFD
  }
}

// ---------------------------------------------------------------------------
// Values by JSON Schema: valid-ish first, for the answers past validation.

const EMAIL = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('dup@example.com', 'DUP@Example.com', 'dup@example.com ') },
  { weight: 3, arbitrary: fc.nat().map((n) => `fuzz${n}@example.com`) },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((local) => `${local}@example.com`) },
);

const DATE = fc.date({ min: new Date('1800-01-01'), max: new Date('2300-12-31'), noInvalidDate: true });

function stringFor(schema: any, field: string, world: FuzzWorld): fc.Arbitrary<string> {
  if (schema.format === 'email' || /email/i.test(field)) return EMAIL;
  if (schema.format === 'date') return DATE.map((date) => date.toISOString().slice(0, 10));
  if (schema.format === 'date-time') return DATE.map((date) => date.toISOString());
  if (field === 'id' || /Id$/.test(field)) return idValue(world, collectionNamed(world, field));
  if (/currency/i.test(field)) return fc.constantFrom('USD', 'EUR', 'usd', 'JPY', 'XXX', 'US', 'EURO');
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  const plain = fc.string({ minLength, maxLength });
  if (schema.pattern) {
    try {
      return fc.oneof(fc.stringMatching(new RegExp(schema.pattern)), plain);
    } catch {
      return plain; // a pattern fast-check cannot generate from
    }
  }
  return fc.oneof({ weight: 3, arbitrary: plain }, { weight: 1, arbitrary: fc.constantFrom(...world.words) });
}

function integerFor(schema: any): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
  return fc.oneof(fc.integer({ min, max: Math.min(max, min + 1_000_000) }), fc.constantFrom(min, max));
}

/** A value that the schema mostly accepts (formats and enums honoured, lengths and sizes kept small). */
function valueOf(schema: any, field: string, world: FuzzWorld): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return wrongJson;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((branch: any) => valueOf(branch, field, world)));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type: string) => valueOf({ ...schema, type }, field, world)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerFor(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringFor(schema, field, world);
    case 'array': {
      const minLength = Math.min(schema.minItems ?? 0, 5);
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 5, 5));
      return fc.array(valueOf(schema.items, field, world), { minLength, maxLength });
    }
    case 'object':
      return objectOf(schema, world);
    default:
      return wrongJson;
  }
}

function objectOf(schema: any, world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, any> = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, valueOf(sub, name, world)]));
  return fc.record(model, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
}

// ---------------------------------------------------------------------------
// Request bodies: the schema's value, then spoiled (or not), then encoded.

const UNKNOWN_FIELDS = ['unknown', '__proto__', 'constructor', 'prototype', 'id', 'createdAt', 'organizationId', ''];

type Mutation = (value: Record<string, unknown>) => unknown;

/** One change to a valid-ish object: none, a field removed or of a wrong type, an unknown field, a huge string. */
function mutation(fields: string[]): fc.Arbitrary<Mutation> {
  const field = fields.length ? fc.constantFrom(...fields) : fc.constant('x');
  const withField = (name: string, value: unknown) => (body: Record<string, unknown>) => ({ ...body, [name]: value });
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant<Mutation>((body) => body) },
    {
      weight: 2,
      arbitrary: field.map(
        (name): Mutation =>
          (body) =>
            Object.fromEntries(Object.entries(body).filter(([k]) => k !== name)),
      ),
    },
    { weight: 3, arbitrary: fc.tuple(field, wrongJson).map(([name, value]) => withField(name, value)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.oneof(fc.constantFrom(...UNKNOWN_FIELDS), hostileString), wrongJson)
        .map(([name, value]) => withField(name, value)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(field, size(1_000, 300_000)).map(([name, n]) => withField(name, 'x'.repeat(n))),
    },
    {
      weight: 1,
      arbitrary: wrongJson.map(
        (value): Mutation =>
          () =>
            value,
      ),
    },
  );
}

/** Bodies no schema describes: not JSON, not an object, too deep, past the body limit. */
const badBodyText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'true',
    '0',
    '"x"',
    '[]',
    '[{}]',
    '{',
    '}',
    '{"a":}',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1}{"b":2}',
    '{"a":1} x',
    '\uFEFF{}',
    'NaN',
    '{"a":NaN}',
    '{"a":1e999}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    'email=a@example.com',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  ),
  size(100, 100_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  size(100, 100_000).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  size(1_000_000, 1_100_000).map((n) => JSON.stringify({ email: 'x'.repeat(n) })),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=utf-32',
  'application/json; charset="UTF-8"',
  'application/json; charset=nope',
  'application/json;charset=utf-8;foo=bar',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/graphql',
  '*/*',
  'application/json, text/plain',
  'application',
  '',
];

type Encoding = 'none' | 'gzip' | 'deflate' | 'br' | 'gzip (not)' | 'zstd' | 'identity' | 'x-unknown' | 'gzip, br';

const ENCODE: Partial<Record<Encoding, (bytes: Buffer) => Buffer>> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

/** Headers and bytes for a body given as text: Content-Type, Content-Encoding, invalid UTF-8 now and then. */
export function encodedBody(
  text: fc.Arbitrary<string>,
): fc.Arbitrary<Pick<FuzzRequest, 'headers' | 'body' | 'bodyText'>> {
  return fc
    .record({
      text,
      contentType: fc.oneof(
        { weight: 30, arbitrary: fc.constant<string | undefined>('application/json') },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      encoding: fc.oneof(
        { weight: 30, arbitrary: fc.constant<Encoding>('none') },
        {
          weight: 2,
          arbitrary: fc.constantFrom<Encoding>(
            'gzip',
            'deflate',
            'br',
            'gzip (not)',
            'zstd',
            'identity',
            'x-unknown',
            'gzip, br',
          ),
        },
      ),
      invalidUtf8: maybe(fc.nat(), 1, 30),
    })
    .map(({ text, contentType, encoding, invalidUtf8 }) => {
      let bytes: Buffer = Buffer.from(text, 'utf8');
      if (invalidUtf8 !== undefined && bytes.length) {
        // A byte no UTF-8 sequence may hold, at some position.
        const at = invalidUtf8 % bytes.length;
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xc3]), bytes.subarray(at)]);
      }
      const headers: Record<string, string> = {};
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (encoding !== 'none') {
        headers['content-encoding'] = encoding === 'gzip (not)' ? 'gzip' : encoding;
        bytes = ENCODE[encoding]?.(bytes) ?? bytes;
      }
      return { headers, body: Uint8Array.from(bytes), bodyText: text };
    });
}

// ---------------------------------------------------------------------------
// REST: one operation of the OpenAPI document, asked in every way.

export interface RestOperation {
  method: string;
  /** As the document writes it: `/crm/contacts/{id}`. */
  path: string;
  parameters: any[];
  bodySchema?: any;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** A body schema named as a component (`{$ref: '#/components/schemas/ContactCreate'}`): the component. */
function componentOf(doc: any, schema: any): any {
  const name = /^#\/components\/schemas\/([\w.-]+)$/.exec(schema?.$ref ?? '')?.[1];
  return name ? doc.components.schemas[name] : schema;
}

export function restOperations(doc: any): RestOperation[] {
  const operations: RestOperation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
        bodySchema: componentOf(
          doc,
          operation.requestBody?.content?.['application/json']?.schema ?? (operation.requestBody ? {} : undefined),
        ),
      });
    }
  }
  return operations;
}

/** The value of one query parameter: per its schema, a number of the wrong sort, or hostile. */
function queryValue(schema: any, name: string, world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: valueOf(schema, name, world).map((value) =>
        typeof value === 'string' ? value : JSON.stringify(value),
      ),
    },
    { weight: 2, arbitrary: numberText },
    { weight: 2, arbitrary: hostileString },
  );
}

/** `?a=1&a=2&b=x`: documented parameters (sometimes repeated), unknown ones, encoded or raw. */
function queryString(operation: RestOperation, world: FuzzWorld): fc.Arbitrary<string> {
  const documented = operation.parameters.filter((parameter) => parameter.in === 'query');
  const pair = (name: string, value: fc.Arbitrary<string>) => fc.tuple(fc.constant(name), value);
  const unknownName = fc.oneof(hostileString, fc.constantFrom('page[]', 'a[b]', '__proto__', 'limit '));
  const entries = fc.tuple(
    ...documented.map((parameter) => {
      const one = pair(parameter.name, queryValue(parameter.schema, parameter.name, world));
      const given = fc.oneof(
        { weight: 8, arbitrary: one.map((entry) => [entry]) },
        { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 2 }) },
      );
      return maybe(given, 1, 2);
    }),
    maybe(fc.array(fc.tuple(unknownName, hostileString), { minLength: 1, maxLength: 2 }), 1, 4),
  );
  return fc.tuple(entries, fc.boolean(), fc.nat()).map(([groups, raw, order]) => {
    const pairs = groups.flatMap((group) => group ?? []);
    if (pairs.length > 1) pairs.push(...pairs.splice(0, order % pairs.length)); // not always in document order
    const parts = pairs.map(([name, value]) => `${segment(name, raw)}=${segment(value, raw)}`);
    return parts.length ? `?${parts.join('&')}` : '';
  });
}

/** The path with `{param}` filled: an id of the right kind, of another, another org's, spoiled or hostile. */
function filledPath(operation: RestOperation, world: FuzzWorld): fc.Arbitrary<string> {
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  if (!names.length) return fc.constant(operation.path);
  // The collection is the path up to the first parameter: /api-keys/{id}/rotate -> /api-keys.
  const collection = operation.path.slice(0, operation.path.indexOf('/{'));
  const value = fc.oneof(
    { weight: 4, arbitrary: idValue(world, collection).map((id) => segment(id, false)) },
    { weight: 1, arbitrary: fc.tuple(hostileString, fc.boolean()).map(([text, raw]) => segment(text, raw)) },
  );
  return fc.tuple(...names.map(() => value)).map((values) => {
    let path = operation.path;
    names.forEach((name, i) => (path = path.replace(`{${name}}`, values[i]!)));
    return path;
  });
}

/** A request to one operation: its method mostly, then path, query, credential, body and headers all fuzzed. */
export function restRequest(operation: RestOperation, prefix: string, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 9, arbitrary: fc.constant(operation.method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  );
  const schema = operation.bodySchema;
  const fields = Object.keys(schema?.properties ?? {});
  const jsonText = fc
    .tuple(schema ? objectOf(schema, world) : fc.constant({}), mutation(fields))
    .map(([value, change]) => JSON.stringify(change(value)) ?? 'null');
  const body = encodedBody(fc.oneof({ weight: 6, arbitrary: jsonText }, { weight: 1, arbitrary: badBodyText }));
  return fc
    .record({
      method,
      path: filledPath(operation, world),
      query: queryString(operation, world),
      authorization: authorization(world),
      body: schema ? maybe(body, 12, 1) : maybe(body, 1, 8),
      // Fresh keys, two that repeat (with the same body or another), malformed ones now and then.
      idempotencyKey: maybe(
        fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2') },
          { weight: 4, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: fc.oneof(fc.constantFrom('', ' ', 'a b', 'k'.repeat(256)), headerValue) },
        ),
        1,
        2,
      ),
      extraHeaders: maybe(
        fc.dictionary(
          fc.constantFrom('x-forwarded-for', 'accept', 'accept-charset', 'origin', 'x-http-method-override', 'range'),
          headerValue,
          { minKeys: 1, maxKeys: 2 },
        ),
        1,
        4,
      ),
    })
    .map(({ method, path, query, authorization, body, idempotencyKey, extraHeaders }) => {
      const headers: Record<string, string> = { ...extraHeaders };
      if (authorization !== undefined) headers.authorization = authorization;
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      // fetch refuses a body on GET and HEAD.
      const sent = body && method !== 'GET' && method !== 'HEAD' ? body : undefined;
      return printable({
        method,
        path: prefix + path + query,
        headers: { ...headers, ...sent?.headers },
        body: sent?.body,
        bodyText: sent?.bodyText,
        operation: method === operation.method ? `${operation.method} ${operation.path}` : undefined,
      });
    });
}

/** Requests to every operation of the document, and to paths it does not have. */
export function anyRestRequest(doc: any, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const prefix = new URL(doc.servers?.[0]?.url ?? 'http://x/').pathname.replace(/\/$/, '');
  const operations = restOperations(doc).map((operation) => restRequest(operation, prefix, world));
  const elsewhere = fc
    .tuple(
      fc.constantFrom(
        '/',
        prefix,
        `${prefix}/`,
        `${prefix}/openapi.json`,
        '/healthz',
        '/readyz',
        `${prefix}/nope`,
        '/nope',
      ),
      maybe(
        hostileString.map((text) => segment(text, false)),
        1,
        1,
      ),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
      authorization(world),
    )
    .map(([path, tail, method, authorization]) =>
      printable({
        method,
        path: tail === undefined ? path : `${path.replace(/\/$/, '')}/${tail}`,
        headers: authorization === undefined ? {} : { authorization },
      }),
    );
  return fc.oneof({ weight: 20, arbitrary: fc.oneof(...operations) }, { weight: 1, arbitrary: elsewhere });
}

/**
 * Requests sent together: a few different ones, or one request several times
 * over (a retried create, a reused Idempotency-Key: races).
 */
export function concurrently(request: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<FuzzRequest[]> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(request, { minLength: 1, maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(request, size(2, 4)).map(([one, times]) => Array.from({ length: times }, () => one)),
    },
  );
}
