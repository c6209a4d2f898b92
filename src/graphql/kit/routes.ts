// A REST route is a row: method, path, the GraphQL operation it runs, how the
// request becomes variables, and the status and shape of the answer. Rows are
// data that the REST facade (src/rest) serves and documents; the scope is not
// here: it is the @Requires of the operation's root field, read off the schema.
// `resourceRoutes` writes the usual five rows of a resource from its type,
// input and list definitions, so a resource states only what is its own.
import { z } from 'zod';
import type { Context } from '../context.js';
import { responseSchemaOf, selectionOf, type PublicType } from './fields.js';
import type { AnyResourceInput } from './inputs.js';
import type { AnyListDefinition } from './list.js';
import { COUNT_CAP } from './page.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteInput<Q, B> {
  params: Record<string, string>;
  query: Q;
  body: B;
}

/** A file a route answers instead of JSON: its type, name, size and bytes in order. */
export interface FileAnswer {
  contentType: string;
  filename: string;
  size?: number;
  body: AsyncIterable<Uint8Array>;
}

/**
 * A download: the route's operation runs first (its scope, tenancy and 404 as
 * for any row), then `open` answers the file, streamed; its errors before the
 * first byte are the usual envelope.
 */
export interface FileRoute {
  /** The media types it may answer, for the OpenAPI document. */
  contentTypes: string[];
  open(context: Context, data: unknown): Promise<FileAnswer>;
}

/** A file the request sends (its body), received before the route's operation runs. */
export interface UploadAnswer {
  /** The record the upload made: the operation then runs with `params.id` (its scope, tenancy and shape as for any row). */
  id: string;
}

/**
 * An upload: the body is a file of one of `contentTypes` (not JSON), streamed to
 * `receive` with the validated query; then the route's operation runs with
 * `params.id` of what it made. At most `maxBytes` (decoded): a 413 beyond.
 */
export interface UploadRoute {
  /** The media types it takes, for the OpenAPI document. */
  contentTypes: string[];
  /** What the OpenAPI document shows as the body, by media type. */
  examples?: Record<string, string>;
  maxBytes(context: Context): number;
  receive(
    context: Context,
    query: unknown,
    upload: { contentType: string | undefined; body: AsyncIterable<Buffer> },
  ): Promise<UploadAnswer>;
}

export interface RestRoute<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Express-style path under /v1, e.g. /crm/contacts/:id */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** GraphQL document with one operation selecting one root field. */
  operation: string;
  /** The OpenAPI operationId when the root field does not give it (see operationIdOf). */
  operationId?: string;
  query?: Q;
  body?: B;
  /** The body's OpenAPI component name when not derived from the operationId (see bodyNameOf). */
  bodyName?: string;
  variables(input: RouteInput<z.output<Q>, z.output<B>>): Record<string, unknown>;
  status: 200 | 201 | 202 | 204;
  /** Answers a file (streamed) instead of the operation's JSON. */
  file?: FileRoute;
  /** Takes a file as its body instead of JSON. */
  upload?: UploadRoute;
  /** The response body's schema, for the OpenAPI document. */
  response?: z.ZodType;
  /** When it answers 409 CONFLICT, for the OpenAPI document (any POST also may: a reused Idempotency-Key). */
  conflict?: string;
  /** When it answers 410 (a change feed cursor past retention: CURSOR_EXPIRED), for the OpenAPI document. */
  gone?: string;
  /** When it answers 403 for more than its scope (the scope of what the input asks for), e.g. 'Credential lacks ...'. */
  forbidden?: string;
  /** Fields of the record only an action changes: in this body a 400 with the words given (which action to use). */
  actionOnly?: Record<string, string>;
  /** A create's: the read-only values a new record has before anything is set (its lifecycle's initial state). */
  newRecord?: Record<string, unknown>;
  /** A valid body, shown in the OpenAPI document (a declaration's examples). */
  example?: Record<string, unknown>;
}

const upperFirst = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** The root field a row's operation selects: `query ($id: ID!) { contact(id: $id) {…} }` -> `contact`. */
function rootFieldOf(operation: string): string {
  const name = /^[^{]*\{\s*([_A-Za-z]\w*)/.exec(operation)?.[1];
  if (!name) throw new Error(`REST operation selects no root field: ${operation}`);
  return name;
}

/**
 * The OpenAPI operationId, as a person would name the call: the row's own, else
 * the mutation it runs (`createContact`, `rotateWebhookSecret`), `list<Field>`
 * for a query of a collection (a GET whose path ends in a word) and
 * `get<Field>` for one of a record (`listContacts`, `getContact`).
 */
export function operationIdOf(row: Pick<RestRoute, 'operationId' | 'operation' | 'method' | 'path'>): string {
  if (row.operationId) return row.operationId;
  const field = rootFieldOf(row.operation);
  if (/^\s*mutation\b/.test(row.operation)) return field;
  return `${/\/:\w+$/.test(row.path) ? 'get' : 'list'}${upperFirst(field)}`;
}

/**
 * The OpenAPI component of a row's body: the row's own, else the operationId's
 * noun and verb (`createApiKey` -> `ApiKeyCreate`, `redeliverWebhook` ->
 * `WebhookRedeliver`).
 */
export function bodyNameOf(row: Pick<RestRoute, 'bodyName' | 'operationId' | 'operation' | 'method' | 'path'>): string {
  if (row.bodyName) return row.bodyName;
  const [, verb, noun] = /^([a-z]+)(.*)$/.exec(operationIdOf(row))!;
  return `${noun}${upperFirst(verb!)}`;
}

/** Keeps each row's query/body types tied to its variables function. */
export function route<Q extends z.ZodType, B extends z.ZodType>(row: RestRoute<Q, B>): RestRoute {
  return row as unknown as RestRoute;
}

export const paginationSchema = z
  .object({
    page: z.int().min(1).nullable().meta({ description: 'The page number; null on a page reached by `after`.' }),
    limit: z.int().min(1).max(100),
    total: z.int().min(0).meta({ description: 'With `totalExact` false, a lower bound.' }),
    pages: z.int().min(0),
    totalExact: z.boolean().meta({
      description: `False when a filtered list matches more than ${COUNT_CAP}: then counted to there.`,
    }),
    next: z.string().nullable().meta({
      description: 'The cursor of the next page, for `after`; null on the last page. Also the `Link` header.',
    }),
  })
  .meta({ id: 'Pagination' });

const pageSchemas = new Map<z.ZodType, z.ZodType>();

/** `{data: [item], pagination}`, registered as the component `id`. */
export function pageOf(item: z.ZodType, id: string): z.ZodType {
  let page = pageSchemas.get(item);
  if (!page) {
    page = z.object({ data: z.array(item), pagination: paginationSchema }).meta({ id });
    pageSchemas.set(item, page);
  }
  return page;
}

export const PAGINATION_SELECTION = 'pagination { page limit total pages totalExact next }';

export interface ResourceRoutesOptions {
  /** e.g. /crm/contacts */
  path: string;
  tag: string;
  type: PublicType;
  /** Singular and plural words for summaries: 'contact', 'contacts'. */
  noun: [string, string];
  list?: AnyListDefinition;
  input?: AnyResourceInput;
  /** Which of the five to serve; default: list and get, plus create/update with `input`, and delete. */
  only?: ('list' | 'create' | 'get' | 'update' | 'delete')[];
  /** Extra words per operation, e.g. { list: 'Oldest first unless sorted.' }. */
  descriptions?: Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;
  /** When an operation answers 409, e.g. { delete: 'The last admin' }. */
  conflicts?: Partial<Record<'create' | 'update' | 'delete', string>>;
  /** GraphQL names when not the type's: { one: 'attendanceRecord', many: 'attendance' }. */
  names?: { one: string; many: string };
  /** Fields only an action changes, refused in the PUT body (see RestRoute.actionOnly). */
  actionOnly?: Record<string, string>;
  /** See RestRoute.newRecord. */
  newRecord?: Record<string, unknown>;
  /** Valid create and update bodies (see RestRoute.example). */
  examples?: { create?: Record<string, unknown>; update?: Record<string, unknown> };
  /** What a create answers when not `type`: a credential with its once-shown secret (kit/secrets.ts). */
  created?: PublicType;
}

/**
 * The rows of `GET /things`, `POST /things`, `GET/PUT/DELETE /things/:id`, over
 * the GraphQL operations `things`, `createThing`, `thing`, `updateThing`,
 * `deleteThing` (Thing = the type's name; things = its name, lower-cased, plus s).
 */
export function resourceRoutes(options: ResourceRoutesOptions): RestRoute[] {
  const { path, tag, type, list, input, descriptions = {}, conflicts = {} } = options;
  const [many] = options.noun.slice(1);
  // 'an API key', 'an OAuth app': a noun that starts with a capital vowel is read as one.
  const one = `${/^[AEIOU]/.test(options.noun[0]) ? 'an' : 'a'} ${options.noun[0]}`;
  const name = type.name;
  const single = options.names?.one ?? name[0]!.toLowerCase() + name.slice(1);
  const plural = options.names?.many ?? `${single}s`;
  // Named after the record as GraphQL names it (`getAttendanceRecord`), not its type.
  const record = upperFirst(single);
  const fields = selectionOf(type);
  const object = responseSchemaOf(type);
  const wanted = new Set(options.only ?? ['list', 'get', 'delete', ...(input ? (['create', 'update'] as const) : [])]);
  const rows: RestRoute[] = [];
  if (wanted.has('list') && list) {
    rows.push(
      route({
        method: 'get',
        path,
        tag,
        summary: `List ${many}`,
        operationId: `list${upperFirst(plural)}`,
        description: descriptions.list ?? 'Oldest first (createdAt, then id) unless `sort` names a field.',
        operation: `query (${list.variables.declarations}) { ${plural}(${list.variables.arguments}) {
          data { ${fields} } ${PAGINATION_SELECTION} } }`,
        query: list.schema,
        variables: ({ query }) => list.variablesOf(query as Record<string, unknown>),
        status: 200,
        response: pageOf(object, `${name}Page`),
      }),
    );
  }
  if (wanted.has('create') && input) {
    rows.push(
      route({
        method: 'post',
        path,
        tag,
        summary: `Create ${one}`,
        operationId: `create${record}`,
        description: descriptions.create,
        operation: `mutation ($input: Create${name}Input!) { create${name}(input: $input) { ${
          options.created ? selectionOf(options.created) : fields
        } } }`,
        body: input.create,
        bodyName: `${name}Create`,
        variables: ({ body }) => ({ input: body }),
        status: 201,
        response: options.created ? responseSchemaOf(options.created) : object,
        conflict: conflicts.create,
        actionOnly: options.actionOnly,
        newRecord: options.newRecord,
        example: options.examples?.create,
      }),
    );
  }
  if (wanted.has('get')) {
    rows.push(
      route({
        method: 'get',
        path: `${path}/:id`,
        tag,
        summary: `Get ${one}`,
        operationId: `get${record}`,
        description: descriptions.get,
        operation: `query ($id: ID!) { ${single}(id: $id) { ${fields} } }`,
        variables: ({ params }) => ({ id: params.id }),
        status: 200,
        response: object,
      }),
    );
  }
  if (wanted.has('update') && input) {
    rows.push(
      route({
        method: 'put',
        path: `${path}/:id`,
        tag,
        summary: `Update ${one}`,
        operationId: `update${record}`,
        description:
          descriptions.update ?? 'Partial: fields sent are changed, omitted are kept, null clears an optional field.',
        operation: `mutation ($id: ID!, $input: Update${name}Input!) { update${name}(id: $id, input: $input) { ${fields} } }`,
        body: input.update,
        bodyName: `${name}Update`,
        variables: ({ params, body }) => ({ id: params.id, input: body }),
        status: 200,
        response: object,
        conflict: conflicts.update,
        actionOnly: options.actionOnly,
        example: options.examples?.update,
      }),
    );
  }
  if (wanted.has('delete')) {
    rows.push(
      route({
        method: 'delete',
        path: `${path}/:id`,
        tag,
        summary: `Delete ${one}`,
        operationId: `delete${record}`,
        description: descriptions.delete,
        operation: `mutation ($id: ID!) { delete${name}(id: $id) }`,
        variables: ({ params }) => ({ id: params.id }),
        status: 204,
        conflict: conflicts.delete,
      }),
    );
  }
  return rows;
}

export interface ActionRouteOptions {
  /** The body the action takes (its GraphQL input type named `inputType`). */
  body?: { schema: z.ZodType; inputType: string; optional: boolean };
  /** When it answers 409 CONFLICT. */
  conflict?: string;
  /** e.g. /api-keys/:id/rotate */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** The mutation taking `id`, e.g. rotateApiKey. */
  mutation: string;
  /** The OpenAPI operationId when not the mutation's name (`clockOutAttendanceRecord`). */
  operationId?: string;
  /** The body's OpenAPI component name when not derived from the operationId (`AttendanceClockOut`). */
  bodyName?: string;
  /** The answer's type. */
  type: PublicType;
  status?: 200 | 201;
  /** A valid body (see RestRoute.example). */
  example?: Record<string, unknown>;
}

/** `POST /things/:id/<action>` over the mutation `<action>Thing(id: ID!)`. */
export function actionRoute(options: ActionRouteOptions): RestRoute {
  const { body } = options;
  const fields = selectionOf(options.type);
  return route({
    method: 'post',
    path: options.path,
    tag: options.tag,
    summary: options.summary,
    description: options.description,
    operationId: options.operationId,
    bodyName: options.bodyName,
    operation: body
      ? `mutation ($id: ID!, $input: ${body.inputType}${body.optional ? '' : '!'}) { ${options.mutation}(id: $id, input: $input) { ${fields} } }`
      : `mutation ($id: ID!) { ${options.mutation}(id: $id) { ${fields} } }`,
    body: body?.schema,
    variables: ({ params, body: given }) => (body ? { id: params.id, input: given } : { id: params.id }),
    status: options.status ?? 200,
    response: responseSchemaOf(options.type),
    conflict: options.conflict,
    example: options.example,
  });
}
