// GET /v1/openapi.json: generated from the route table and its zod schemas, so
// the document says what the server does (requests: the services' own schemas).
import { z } from 'zod';
import { SCOPE_DESCRIPTIONS } from '../auth/scopes.js';
import { bodyNameOf, operationIdOf, type UploadRoute } from '../graphql/kit/routes.js';
import { COMPONENT_URI, errorResponses, HEADERS, IDEMPOTENCY_KEY, PREFER, withHeaders } from './openapi-responses.js';
import { errorSchema } from './response-schemas.js';
import type { ServedRoute as RestRoute } from './served-route.js';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    reused: 'inline',
  }) as JsonSchema;
  return json;
}

/** A schema registered with .meta({id}) becomes a $ref to its component. */
function responseSchema(schema: z.ZodType): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: COMPONENT_URI(id) } : toSchema(schema, 'output');
}

function queryParameters(query: z.ZodType | undefined) {
  if (!(query instanceof z.ZodObject)) return [];
  const json = toSchema(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const shape = query.shape as Record<string, z.ZodType>;
  return Object.entries(json.properties ?? {}).map(([name, { description, ...schema }]) => {
    // z.toJSONSchema leaves defaults out of input schemas (a schema's own, or one its metadata states, as
    // page's: applied by the list, not the schema); a client wants to know them.
    const field = shape[name];
    const stated = field && z.globalRegistry.get(field)?.default;
    const fallback =
      field instanceof z.ZodDefault
        ? { default: field.def.defaultValue }
        : stated !== undefined
          ? { default: stated }
          : {};
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(description !== undefined && { description }),
      schema: { ...schema, ...fallback },
    };
  });
}

type Components = Record<string, JsonSchema>;

/**
 * The fields a body cannot do without: those whose schema refuses a missing
 * value. (z.toJSONSchema's input schema counts a preprocessed field, such as a
 * whole number that may arrive as a string, as optional whatever follows.)
 */
function requiredFieldsOf(body: z.ZodType): string[] {
  if (!(body instanceof z.ZodObject)) return [];
  const shape = body.shape as Record<string, z.ZodType>;
  return Object.keys(shape).filter((name) => !shape[name]!.safeParse(undefined).success);
}

const list = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');

/** What a body says of the record's other fields, which its properties leave out. */
function roundTripNote(row: RestRoute, readOnly: string[]): string {
  const actionOnly = readOnly.filter((name) => row.actionOnly?.[name]);
  const fixed = readOnly.filter((name) => !row.actionOnly?.[name]);
  if (row.role === 'create') {
    // A create has no record to compare with: a read-only field passes only empty, or at the state a new record starts in.
    return (
      `The record's read-only fields (${list(readOnly)}) are accepted only as null (a state: the one a new ` +
      'record starts in); any other value is refused (400), as is any other field.'
    );
  }
  return [
    `A record read with GET may be sent back as it is: its read-only fields (${list(fixed)}) are accepted ` +
      'at their current values and another value is refused (400), as is any other field.',
    ...actionOnly.map((name) => `${row.actionOnly![name]}; here only its current value is accepted.`),
  ].join(' ');
}

/**
 * A POST or PUT body as a named component (`ContactCreate`, `ContactUpdate`,
 * `EmployeeTerminate`) holding the fields it sets, and nothing the answer only
 * shows. A create's or update's body may also carry the record's read-only
 * fields at their current values (the GET -> PUT round trip): their names are
 * allowed by `propertyNames` and the description says so, rather than typed as
 * readOnly properties, so a generated client's body type is the input alone
 * and a validator (Prism drops readOnly properties from request schemas) still
 * refuses any other name. Required only when the schema requires a field: an
 * absent body is read as `{}`. A body with no field (an action that takes no
 * input) stays inline: an empty object.
 */
function requestBodyOf(row: RestRoute & { body: z.ZodType }, components: Components) {
  const { required: _guessed, ...json } = toSchema(row.body, 'input') as JsonSchema & {
    properties?: Record<string, JsonSchema>;
  };
  const required = requiredFieldsOf(row.body);
  const fields = Object.keys(json.properties ?? {});
  // Only a create's or update's body may carry the record's read-only fields (served-route.ts); an action's, none.
  const readOnly = row.readOnly.filter((name) => !fields.includes(name));
  const { additionalProperties: _closed, ...open } = json;
  const body = {
    ...(readOnly.length
      ? {
          ...open,
          description: [json.description, roundTripNote(row, readOnly)].filter(Boolean).join(' '),
          propertyNames: { enum: [...fields, ...readOnly] },
        }
      : json),
    ...(required.length && { required }),
  };
  let schema: JsonSchema = body;
  if (fields.length) {
    const name = bodyNameOf(row);
    if (components[name]) throw new Error(`component ${name} is taken: give the body of ${row.path} another name`);
    components[name] = body;
    schema = { $ref: COMPONENT_URI(name) };
  }
  // A Media Type Object's `examples` (named Example Objects), so an explorer offers it as a ready request.
  const examples = row.example && { examples: { [row.role ?? 'body']: { value: row.example } } };
  return {
    required: required.length > 0,
    content: { 'application/json': { schema, ...examples } },
  };
}

/** An uploaded file as the body: its media types, each a string, with an example file. */
function uploadBodyOf(upload: UploadRoute) {
  return {
    required: true,
    content: Object.fromEntries(
      upload.contentTypes.map((type) => [
        type,
        { schema: { type: 'string' }, ...(upload.examples?.[type] && { example: upload.examples[type] }) },
      ]),
    ),
  };
}

function operationOf(row: RestRoute, components: Components) {
  const pathParameters = [...row.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const scopeNote = row.scope ? `Requires the \`${row.scope}\` scope (or \`admin\`).` : 'Any valid credential.';
  return {
    operationId: operationIdOf(row),
    tags: [row.tag],
    summary: row.summary,
    description: [row.description, scopeNote].filter(Boolean).join('\n\n'),
    security: [{ bearerAuth: row.scope ? [row.scope] : [] }, { oauth2: row.scope ? [row.scope] : [] }],
    parameters: [
      ...pathParameters,
      ...queryParameters(row.query),
      ...(row.method === 'post' && !row.upload ? [IDEMPOTENCY_KEY] : []),
      ...(row.method !== 'get' && !row.upload ? [PREFER] : []),
    ],
    ...(row.body && { requestBody: requestBodyOf({ ...row, body: row.body }, components) }),
    ...(row.upload && { requestBody: uploadBodyOf(row.upload) }),
    responses: withHeaders(
      {
        [String(row.status)]: row.file
          ? {
              description: 'The file, streamed',
              headers: {
                'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"' },
              },
              content: Object.fromEntries(
                row.file.contentTypes.map((type) => [type.split(';')[0]!, { schema: { type: 'string' } }]),
              ),
            }
          : row.status === 204 || !row.response
            ? { description: 'No content' }
            : { description: 'Success', content: { 'application/json': { schema: responseSchema(row.response) } } },
        ...errorResponses(row),
      },
      // An upload is not replayed by an Idempotency-Key (its body is a file, not kept).
      row.upload ? 'upload' : row.method,
      row.method === 'get' && row.query instanceof z.ZodObject && 'after' in row.query.shape,
      row.method !== 'get' && !row.upload,
    ),
  };
}

/** Where the document is served under /v1 (src/rest/app.ts), without a credential. */
export const OPENAPI_PATH = '/openapi.json';

/** The document describes itself too: it is a /v1 route a client can call. */
const documentOperation = {
  operationId: 'getOpenApiDocument',
  tags: ['OpenAPI'],
  summary: 'This document',
  description: 'The OpenAPI 3.1 document of the API, generated from the routes the server runs. No credential needed.',
  security: [],
  responses: {
    '200': {
      description: 'The OpenAPI document',
      content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
    },
  },
};

export function buildOpenApiDocument(routes: RestRoute[], publicUrl: string) {
  // A response schema made on first read (the events') registers its components: read them all first.
  for (const row of routes) void row.response;
  const registered = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: COMPONENT_URI,
  }) as { schemas: Record<string, JsonSchema> };
  const schemas = Object.fromEntries(
    // $id would be a fragment URI, which JSON Schema 2020-12 forbids; components are found by $ref.
    Object.entries(registered.schemas).map(([id, { $schema: _dialect, $id: _uri, id: _id, ...schema }]) => [
      id,
      schema,
    ]),
  );
  void errorSchema; // registered as the Error component on import
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set([documentOperation.operationId]);
  for (const row of routes) {
    // Generated clients name their methods after these: two alike would make one unreachable.
    const operationId = operationIdOf(row);
    if (operationIds.has(operationId)) throw new Error(`operationId ${operationId} is taken: give ${row.path} its own`);
    operationIds.add(operationId);
    const path = row.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [row.method]: operationOf(row, schemas) };
  }
  paths[OPENAPI_PATH] = { get: documentOperation };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Business Platform API',
      version: '1.0.0',
      description: 'CRM, HR and finance. Errors use {"error": {code, message, field?, retryAfter?}}.',
    },
    servers: [{ url: `${publicUrl}/v1` }],
    paths,
    components: {
      schemas,
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `API key or OAuth access token. Scopes: ${Object.entries(SCOPE_DESCRIPTIONS)
            .map(([scope, text]) => `${scope} (${text})`)
            .join('; ')}`,
        },
        // The authorization service (README, "Building an OAuth app"); its tokens are Bearer credentials.
        oauth2: {
          type: 'oauth2',
          description:
            'Access tokens from the authorization service. Codes need PKCE (S256) for public clients; refresh tokens rotate. ' +
            `Server metadata: ${publicUrl}/.well-known/oauth-authorization-server`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${publicUrl}/oauth/authorize`,
              tokenUrl: `${publicUrl}/oauth/token`,
              refreshUrl: `${publicUrl}/oauth/token`,
              scopes: SCOPE_DESCRIPTIONS,
            },
            clientCredentials: { tokenUrl: `${publicUrl}/oauth/token`, scopes: SCOPE_DESCRIPTIONS },
          },
        },
      },
    },
  };
}
