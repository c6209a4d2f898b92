// Generators for test/fuzz.test.ts: requests to /graphql. Documents are built
// from the live schema (random selections of its fields with arguments, as
// literals or variables of the right or a wrong type, aliases, fragments,
// directives), then sometimes spoiled as text; documents that hit the limits
// (depth, aliases, tokens, size, fragment expansion) and request bodies that
// are no GraphQL request at all are mixed in.
import fc from 'fast-check';
import {
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import {
  authorization,
  collectionNamed,
  encodedBody,
  hostileString,
  idValue,
  maybe,
  printable,
  size,
  wrongJson,
  type FuzzRequest,
  type FuzzWorld,
} from './fuzz.js';

/** Selections below the root; deeper ones end in a leaf field. */
const MAX_DEPTH = 3;

// ---------------------------------------------------------------------------
// A document as data, rendered to text with its variables.

type ArgumentValue =
  | { as: 'literal'; value: unknown }
  | { as: 'variable'; type: string; value: unknown; omitted: boolean; defaultValue?: unknown };

interface FieldSelection {
  name: string;
  alias?: string;
  args: [string, ArgumentValue][];
  /** Sub-selection; undefined for a leaf (or, on purpose, for an object field without one). */
  selections?: FieldSelection[];
  /** The type the selections are made on, for fragments. */
  on: string;
  wrap: 'none' | 'inline' | 'fragment';
  directive?: string;
}

interface Operation {
  kind: 'query' | 'mutation' | 'subscription' | '';
  name?: string;
  selections: FieldSelection[];
}

interface Rendered {
  query: string;
  variables: Record<string, unknown>;
}

/** One of an enum's values: bare in a literal (`sort: email_desc`), a string in variables. */
class EnumName {
  constructor(readonly name: string) {}
  toJSON() {
    return this.name;
  }
}

/** GraphQL literal syntax for a JSON value; object keys made into names. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof EnumName) return value.name;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  const fields = Object.entries(value as Record<string, unknown>).map(
    ([key, inner]) => `${key.replace(/\W/g, '_').replace(/^(?=\d|$)/, '_')}: ${literal(inner)}`,
  );
  return `{${fields.join(', ')}}`;
}

function render(operations: Operation[]): Rendered {
  const definitions: string[] = [];
  const variables: Record<string, unknown> = {};
  let fragmentCount = 0;
  let variableCount = 0;
  for (const operation of operations) {
    const declared: string[] = [];
    const argument = ([name, value]: [string, ArgumentValue]) => {
      if (value.as === 'literal') return `${name}: ${literal(value.value)}`;
      const variable = `v${variableCount++}`;
      const fallback = value.defaultValue === undefined ? '' : ` = ${literal(value.defaultValue)}`;
      declared.push(`$${variable}: ${value.type}${fallback}`);
      if (!value.omitted) variables[variable] = value.value;
      return `${name}: $${variable}`;
    };
    const selection = (field: FieldSelection): string => {
      const args = field.args.length ? `(${field.args.map(argument).join(', ')})` : '';
      const sub = field.selections ? ` { ${field.selections.map(selection).join(' ')} }` : '';
      const text = `${field.alias ? `${field.alias}: ` : ''}${field.name}${args}${field.directive ?? ''}${sub}`;
      if (field.wrap === 'inline') return `... on ${field.on} { ${text} }`;
      if (field.wrap === 'fragment') {
        const fragment = `F${fragmentCount++}`;
        definitions.push(`fragment ${fragment} on ${field.on} { ${text} }`);
        return `...${fragment}`;
      }
      return text;
    };
    const body = `{ ${operation.selections.map(selection).join(' ')} }`;
    // The shorthand `{ ... }` has no name and no variables: those need a keyword.
    const kind = operation.kind || (declared.length || operation.name ? 'query' : '');
    const head = kind ? `${kind}${operation.name ? ` ${operation.name}` : ''}` : '';
    const signature = declared.length ? `(${declared.join(', ')})` : '';
    definitions.unshift(`${head}${signature} ${body}`.trim());
  }
  return { query: definitions.join('\n'), variables };
}

// ---------------------------------------------------------------------------
// Generation from the schema.

/** A value for an input type: mostly of that type (ids and words from the world), sometimes any JSON. */
function inputValue(type: GraphQLInputType, name: string, world: FuzzWorld, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return inputValue(type.ofType, name, world, depth);
  if (isListType(type)) {
    const item = inputValue(type.ofType, name, world, depth + 1);
    return fc.oneof({ weight: 4, arbitrary: fc.array(item, { maxLength: 3 }) }, { weight: 1, arbitrary: item });
  }
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant({});
    const fields = Object.values(type.getFields());
    const model = Object.fromEntries(
      fields.map((field) => [field.name, inputValue(field.type, field.name, world, depth + 1)]),
    );
    const required = fields.filter((field) => isNonNullType(field.type)).map((field) => field.name);
    return fc.record(model, { requiredKeys: required });
  }
  const scalar = (() => {
    if (isEnumType(type)) {
      const names = type.getValues().map((value) => new EnumName(value.name));
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...names) },
        { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
      );
    }
    switch (type.name) {
      case 'Int':
        return fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: -2, max: 120 }) },
          { weight: 1, arbitrary: fc.constantFrom(0, 1, 100, 101, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 1.5) },
        );
      case 'SafeInt':
        return fc.oneof(
          { weight: 6, arbitrary: fc.nat() },
          { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53 - 1, 2 ** 53, 1e300) },
        );
      case 'Float':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return fc.boolean();
      case 'JSONObject':
        return fc.object({ maxDepth: 2 });
      default: {
        // String, ID and custom string scalars: ids, emails, dates and the document's words by name.
        if (/^id$|Id$/.test(name)) return idValue(world, collectionNamed(world, name));
        if (/email/i.test(name)) return fc.nat().map((n) => `gql${n}@example.com`);
        if (/Date$/.test(name)) return fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
        if (/At$/.test(name)) return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
        if (/password/i.test(name)) return fc.string({ minLength: 8, maxLength: 20 });
        return fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom(...world.words, 'USD', 'EUR') },
          { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
          { weight: 1, arbitrary: hostileString },
        );
      }
    }
  })();
  return fc.oneof({ weight: 30, arbitrary: scalar as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: wrongJson });
}

const WRONG_TYPES = [
  'Int',
  'Int!',
  'String',
  'String!',
  'ID!',
  '[String!]!',
  'Boolean',
  'Float',
  'SafeInt',
  'JSONObject',
  'Nope',
  'Query',
  '[[Int]]',
];

/** An argument as a literal or a variable; `name` says what it holds (`contactId`). */
function argumentValue(arg: GraphQLArgument, name: string, world: FuzzWorld): fc.Arbitrary<ArgumentValue> {
  const value = fc.oneof(
    { weight: 30, arbitrary: inputValue(arg.type, name, world) },
    { weight: 1, arbitrary: wrongJson },
  );
  return fc.oneof(
    { weight: 3, arbitrary: value.map((value): ArgumentValue => ({ as: 'literal', value })) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          type: fc.oneof(
            { weight: 30, arbitrary: fc.constant(String(arg.type)) },
            { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) },
          ),
          value,
          omitted: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          defaultValue: maybe(value, 1, 8),
        })
        .map((variable): ArgumentValue => ({ as: 'variable', ...variable })),
    },
  );
}

function argumentsOf(field: GraphQLField<unknown, unknown>, world: FuzzWorld): fc.Arbitrary<[string, ArgumentValue][]> {
  // The kind of record an `id` argument names: contact(id), updateContact(id) -> contactId.
  const kind = field.name.replace(/^(?:create|update|delete|rotate|revoke)(?=[A-Z])/, '');
  const idName = `${kind.charAt(0).toLowerCase()}${kind.slice(1)}Id`;
  const each = field.args.map((arg) => {
    const present = argumentValue(arg, arg.name === 'id' ? idName : arg.name, world).map(
      (value): [string, ArgumentValue] => [arg.name, value],
    );
    // A required argument is mostly there; an optional one half the time.
    return isNonNullType(arg.type) ? maybe(present, 12, 1) : maybe(present, 1, 1);
  });
  const unknown = maybe(
    fc
      .tuple(fc.constantFrom('nope', 'first', 'where'), fc.integer())
      .map(([name, value]): [string, ArgumentValue] => [name, { as: 'literal', value }]),
    1,
    50,
  );
  return fc
    .tuple(...each, unknown)
    .map((args) => args.filter((arg): arg is [string, ArgumentValue] => arg !== undefined));
}

const ALIASES = ['a', 'b', 'a1', 'id', 'data', '__typename'];

class DocumentGenerator {
  private readonly memo = new Map<string, fc.Arbitrary<FieldSelection[]>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly world: FuzzWorld,
  ) {}

  /** Some fields of `type` (two or so, `__typename` if none), each with its arguments and sub-selection. */
  selections(type: GraphQLObjectType, depth: number): fc.Arbitrary<FieldSelection[]> {
    const key = `${type.name}:${depth}`;
    let selections = this.memo.get(key);
    if (!selections) {
      const fields = Object.values(type.getFields()).filter(
        (field) => depth < MAX_DEPTH || !isCompositeType(getNamedType(field.type)),
      );
      const chosen = fields.map((field) => maybe(fc.constant(field), 1, Math.max(1, Math.ceil(fields.length / 2))));
      const typename = fc.constant<FieldSelection[]>([{ name: '__typename', args: [], on: type.name, wrap: 'none' }]);
      selections = fc
        .tuple(...chosen)
        .map((picked) => picked.filter((field) => field !== undefined))
        .chain((picked) =>
          picked.length ? fc.tuple(...picked.map((field) => this.field(field, type, depth))) : typename,
        );
      this.memo.set(key, selections);
    }
    return selections;
  }

  field(field: GraphQLField<unknown, unknown>, parent: GraphQLObjectType, depth: number): fc.Arbitrary<FieldSelection> {
    const named = getNamedType(field.type) as GraphQLNamedType;
    const sub: fc.Arbitrary<FieldSelection[] | undefined> = isObjectType(named)
      ? fc.oneof(
          { weight: 60, arbitrary: this.selections(named, depth + 1) },
          { weight: 1, arbitrary: fc.constant(undefined) }, // an object without a selection: invalid
        )
      : fc.oneof(
          { weight: 60, arbitrary: fc.constant(undefined) },
          {
            weight: 1,
            arbitrary: fc.constant<FieldSelection[]>([{ name: 'id', args: [], on: named.name, wrap: 'none' }]),
          }, // a selection on a scalar
        );
    return fc.record({
      name: fc.oneof(
        { weight: 80, arbitrary: fc.constant(field.name) },
        { weight: 1, arbitrary: fc.constantFrom('nope', '__nope', 'Contact') },
      ),
      alias: maybe(fc.constantFrom(...ALIASES), 1, 6),
      args: argumentsOf(field, this.world),
      selections: sub,
      on: fc.constant(parent.name),
      wrap: fc.constantFrom<FieldSelection['wrap']>('none', 'none', 'none', 'none', 'inline', 'fragment'),
      directive: maybe(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(' @skip(if: false)', ' @include(if: true)') },
          { weight: 1, arbitrary: fc.constantFrom(' @include(if: "yes")', ' @nope', ' @deprecated', ' @skip') },
        ),
        1,
        30,
      ),
    });
  }

  /** A query or a mutation of some root fields, or a query of introspection's. */
  operation(): fc.Arbitrary<Operation> {
    const query = this.schema.getQueryType();
    const mutation = this.schema.getMutationType();
    const roots: fc.WeightedArbitrary<Operation>[] = [];
    const name = maybe(fc.constantFrom('Op', 'Other', 'query'), 1, 2);
    if (query) {
      roots.push({
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constantFrom<Operation['kind']>('query', ''),
          name,
          selections: this.selections(query, 0),
        }),
      });
      roots.push({
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constantFrom<Operation['kind']>('query', ''),
          name,
          selections: fc.subarray(META_SELECTIONS, { minLength: 1 }),
        }),
      });
    }
    if (mutation) {
      roots.push({
        weight: 3,
        arbitrary: fc.record({
          kind: fc.oneof(
            { weight: 20, arbitrary: fc.constant<Operation['kind']>('mutation') },
            { weight: 1, arbitrary: fc.constant<Operation['kind']>('subscription') },
          ),
          name,
          selections: this.selections(mutation, 0),
        }),
      });
    }
    return fc.oneof(...roots);
  }
}

/** Introspection, written out (it is the same for every schema). */
const meta = (text: string): FieldSelection => ({ name: text, args: [], on: 'Query', wrap: 'none' });
const META_SELECTIONS: FieldSelection[] = [
  meta('__typename'),
  meta(
    '__schema { queryType { name } types { name kind fields { name args { name } type { name kind ofType { name } } } } }',
  ),
  meta('__type(name: "Contact") { name fields { name type { name } } }'),
  meta('nope: __type(name: "Nope") { name }'),
];

// ---------------------------------------------------------------------------
// Documents at and past the limits, and spoiled text.

const limitDocuments = fc.oneof(
  // Nesting through introspection's ofType, which every schema has.
  size(10, 3_000).map(
    (n) => `{ __schema { types { fields { type { ${'ofType { '.repeat(n)}name${' }'.repeat(n)} } } } } }`,
  ),
  size(5, 3_000).map(
    (n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: events(limit: 100) { data { id data } }`).join(' ')} }`,
  ),
  size(10, 20_000).map((n) => `{ ${'__typename '.repeat(n)}}`),
  size(2, 25).map((levels) => {
    const fragments = [`fragment F0 on Query { __typename }`];
    for (let i = 1; i < levels; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
    return `{ ...F${levels - 1} }\n${fragments.join('\n')}`;
  }),
  fc.constantFrom(
    'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
    '',
    ' ',
    '{}',
    '{ }',
    'query',
    'mutation { }',
    '{ __schema }',
    '{ contacts }',
    'query A { __typename } query B { __typename }',
    'query A { __typename } query A { __typename }',
    'query ($a: Int, $a: Int) { __typename }',
    'query ($a: Int) { __typename }',
    '{ __typename @include }',
    'subscription { __typename }',
    '"""doc""" { __typename }',
    '{ a: __typename a: __schema { __typename } }',
    '{ contact(id: 1) { id } }',
    '{ contacts(limit: 100) { data { deals { data { contact { deals { data { contact { deals { data { id } } } } } } } } } } }',
  ),
  size(60_000, 200_000).map((n) => `{ __typename }\n#${'x'.repeat(n)}`),
  size(1_000, 900_000).map((n) => `{ contacts(q: "${'q'.repeat(n)}") { data { id } } }`),
);

/** The text spoiled: cut short, or a stray character put in. */
function spoiled(text: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.nat().map((n) => text.slice(0, n % (text.length + 1))) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.nat(),
          fc.oneof(
            fc.constantFrom(
              '{',
              '}',
              '(',
              ')',
              '[',
              ']',
              ':',
              '!',
              '$',
              '@',
              '...',
              '"',
              '"""',
              '#',
              '\\',
              '\u0000',
              '&',
              '|',
            ),
            hostileString,
          ),
        )
        .map(([n, inserted]) => {
          const at = n % (text.length + 1);
          return text.slice(0, at) + inserted + text.slice(at);
        }),
    },
  );
}

// ---------------------------------------------------------------------------
// Requests.

interface GraphQLPayload {
  query: string;
  variables?: unknown;
  operationName?: unknown;
}

/** The JSON body of a POST: as a client sends it, or with members of the wrong type or extra ones. */
function postBody(payload: GraphQLPayload): fc.Arbitrary<string> {
  const base = {
    query: payload.query,
    ...(payload.variables !== undefined && { variables: payload.variables }),
    ...(payload.operationName !== undefined && { operationName: payload.operationName }),
  };
  return fc.oneof(
    { weight: 40, arbitrary: fc.constant(JSON.stringify(base)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('query', 'variables', 'operationName', 'extensions', 'unknown'), wrongJson)
        .map(([member, value]) => JSON.stringify({ ...base, [member]: value })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        JSON.stringify([base, base]),
        JSON.stringify([]),
        JSON.stringify({ ...base, variables: JSON.stringify(base.variables ?? {}) }),
        JSON.stringify({ ...base, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }),
        JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'nothex' } } }),
        JSON.stringify({ extensions: { persistedQuery: { version: 2 } } }),
        JSON.stringify({}),
      ),
    },
    { weight: 1, arbitrary: fc.nat().map((n) => JSON.stringify(base).slice(0, n % 200)) },
  );
}

/** As a GET: query, variables and operationName in the search string (mutations are refused over GET). */
function getRequest(payload: GraphQLPayload, authorization: string | undefined): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      preflight: fc.constantFrom<Record<string, string>>(
        {},
        { 'apollo-require-preflight': 'true' },
        { 'content-type': 'application/json' },
        { 'x-apollo-operation-name': 'x' },
      ),
      variables: fc.constantFrom('json', 'json', 'json', 'none', 'garbage'),
    })
    .map(({ preflight, variables }) => {
      const search = new URLSearchParams({ query: payload.query });
      if (variables === 'json' && payload.variables !== undefined)
        search.set('variables', JSON.stringify(payload.variables));
      if (variables === 'garbage') search.set('variables', '{nope');
      if (typeof payload.operationName === 'string') search.set('operationName', payload.operationName);
      return printable({
        method: 'GET',
        path: `/graphql?${search}`,
        headers: { ...preflight, ...(authorization !== undefined && { authorization }) },
      });
    });
}

/** Any request to /graphql: mostly a generated operation POSTed as JSON, sometimes over GET, another method, or no GraphQL at all. */
export function anyGraphQLRequest(schema: GraphQLSchema, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const generator = new DocumentGenerator(schema, world);
  const generated = fc.tuple(generator.operation(), maybe(generator.operation(), 1, 10)).chain(([first, second]) => {
    // Two operations need names (the constant documents try them without).
    const operations = second
      ? [
          { ...first, name: first.name ?? 'First' },
          { ...second, name: 'Second' },
        ]
      : [first];
    const rendered = render(operations);
    return fc.record({
      query: spoiled(rendered.query),
      variables: fc.oneof(
        { weight: 30, arbitrary: fc.constant<unknown>(rendered.variables) },
        { weight: 1, arbitrary: wrongJson },
      ),
      operationName: fc.oneof(
        { weight: second ? 0 : 6, arbitrary: fc.constant<unknown>(undefined) },
        { weight: 3, arbitrary: fc.constantFrom<unknown>(...operations.map((operation) => operation.name)) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('Nope', '', null, 5) },
      ),
    });
  });
  const payload: fc.Arbitrary<GraphQLPayload> = fc.oneof(
    { weight: 15, arbitrary: generated },
    { weight: 1, arbitrary: limitDocuments.map((query) => ({ query })) },
  );
  const request = fc
    .tuple(
      payload,
      authorization(world),
      fc.oneof(
        { weight: 16, arbitrary: fc.constant('post') },
        { weight: 2, arbitrary: fc.constant('get') },
        { weight: 1, arbitrary: fc.constant('other') },
      ),
    )
    .chain(([payload, authorization, transport]) => {
      const auth: Record<string, string> = authorization === undefined ? {} : { authorization };
      if (transport === 'get') return getRequest(payload, authorization);
      const method =
        transport === 'other' ? fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') : fc.constant('POST');
      return fc.tuple(method, encodedBody(postBody(payload))).map(([method, body]) =>
        printable({
          method,
          path: '/graphql',
          headers: { ...auth, ...(method !== 'HEAD' && body.headers) },
          body: method === 'HEAD' ? undefined : body.body,
          bodyText: method === 'HEAD' ? undefined : body.bodyText,
        }),
      );
    });
  // What the client accepts decides the status codes and media type of Apollo's answers.
  return fc
    .tuple(request, maybe(fc.constantFrom(...ACCEPTS), 1, 6))
    .map(([request, accept]) =>
      accept === undefined ? request : printable({ ...request, headers: { ...request.headers, accept } }),
    );
}

const ACCEPTS = [
  'application/graphql-response+json',
  'application/graphql-response+json, application/json;q=0.9',
  'application/json',
  'multipart/mixed; deferSpec=20220824, application/json',
  'text/event-stream',
  'text/html',
  'application/xml',
  '*/*',
  '',
];
