// A REST route is a row: method, path, the GraphQL operation it runs, how the
// request becomes variables, and the status and shape of the answer. Rows are
// data that the REST facade (src/rest) serves and documents; the scope is not
// here: it is the @Requires of the operation's root field, read off the schema.
// resource-routes.ts writes the usual five rows of a resource from its type,
// input and list definitions, so a resource states only what is its own.
import { z } from 'zod';
import type { Context } from '../context.js';
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

export const upperFirst = (name: string) => name[0]!.toUpperCase() + name.slice(1);

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
