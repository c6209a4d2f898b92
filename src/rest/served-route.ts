// A route row as served: with the scope its operation's root field declares
// (@Requires, recorded in the schema's field extensions), the body it reads and
// the read-only fields that body may carry. Reading the scope off the schema
// keeps it written once, on the resolver; the server and the OpenAPI document
// both take the body rules from here, so what one accepts the other describes.
import { parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { z } from 'zod';
import type { Scope } from '../auth/scopes.js';
import type { RestRoute } from '../graphql/kit/routes.js';
import type { ScopeExtension } from '../graphql/kit/scope.js';

/** Set by the service on every record; ignored in request bodies rather than rejected. */
const ALWAYS_READ_ONLY = ['id', 'createdAt', 'updatedAt'];

/** The body of a POST that takes none (an action such as revoke): it sets nothing. */
const NO_FIELDS = z.strictObject({});

export interface ServedRoute extends RestRoute {
  /** null: any valid credential (the operation filters by scope itself). */
  scope: Scope | null;
  /** Every POST and PUT reads a JSON object (absent: `{}`); other methods none. */
  body?: z.ZodType;
  /**
   * The fields a body may carry but cannot set (`id`, `createdAt`, a record's
   * other shown fields): ignored, so a record that was read can be sent back.
   * Any other field the body schema lacks is unknown (400).
   */
  readOnly: string[];
}

function rootFieldScope(schema: GraphQLSchema, source: string): Scope | null {
  const operation = parse(source).definitions[0] as OperationDefinitionNode;
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const selection = operation.selectionSet.selections[0];
  const name = selection?.kind === 'Field' ? selection.name.value : '';
  const field = root?.getFields()[name];
  if (!field) throw new Error(`REST operation selects no known root field: ${source}`);
  const extension = field.extensions as Partial<ScopeExtension>;
  if (extension.scope === undefined) throw new Error(`${name} declares no scope: decorate it with @Requires`);
  return extension.scope;
}

function readOnlyFieldsOf(body: z.ZodType | undefined, response: z.ZodType | undefined): string[] {
  if (!body) return [];
  const shown = response instanceof z.ZodObject ? Object.keys(response.shape) : [];
  const settable = new Set(body instanceof z.ZodObject ? Object.keys(body.shape) : []);
  return [...new Set([...ALWAYS_READ_ONLY, ...shown])].filter((field) => !settable.has(field));
}

export function servedRoutes(schema: GraphQLSchema, rows: readonly RestRoute[]): ServedRoute[] {
  return rows.map((row) => {
    const body = row.body ?? (row.method === 'post' || row.method === 'put' ? NO_FIELDS : undefined);
    return {
      ...row,
      scope: rootFieldScope(schema, row.operation),
      body,
      readOnly: readOnlyFieldsOf(body, row.response),
    };
  });
}
