// The usual REST rows of a resource, written from its type, input and list
// definitions (`resourceRoutes`: list, get, create, update, delete), and a
// lifecycle action's row (`actionRoute`); routes.ts says what a row is.
import { withArticle } from './article.js';
import type { z } from 'zod';
import { responseSchemaOf, selectionOf, type PublicType } from './fields.js';
import type { AnyResourceInput } from './inputs.js';
import type { AnyListDefinition } from './list.js';
import { pageOf, PAGINATION_SELECTION, route, upperFirst, type RestRoute } from './routes.js';

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
  /** The create queues work (an export): 202 Accepted rather than 201 Created. */
  accepted?: boolean;
  /** When an operation answers 403 besides lacking its scope, e.g. { create: 'scopes names a scope the caller lacks' }. */
  forbidden?: { create?: string };
}

/**
 * The rows of `GET /things`, `POST /things`, `GET/PUT/DELETE /things/:id`, over
 * the GraphQL operations `things`, `createThing`, `thing`, `updateThing`,
 * `deleteThing` (Thing = the type's name; things = its name, lower-cased, plus s).
 */
export function resourceRoutes(options: ResourceRoutesOptions): RestRoute[] {
  const { path, tag, type, list, input, descriptions = {}, conflicts = {}, forbidden = {} } = options;
  const [many] = options.noun.slice(1);
  const one = withArticle(options.noun[0]);
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
        status: options.accepted ? 202 : 201,
        response: options.created ? responseSchemaOf(options.created) : object,
        conflict: conflicts.create,
        forbidden: forbidden.create,
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
