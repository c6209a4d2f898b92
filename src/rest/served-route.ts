// A route row as served: with the scope its operation's root field declares
// (@Requires, recorded in the schema's field extensions), the body it reads,
// what that body does and the read-only fields it may carry (at the record's
// values). Reading the scope off the schema keeps it written once, on the
// resolver; the server and the OpenAPI document both take the body rules from
// here, so what one accepts the other describes.
import { parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { z } from 'zod';
import type { Scope } from '../auth/scopes.js';
import type { RestRoute } from '../graphql/kit/routes.js';
import type { ScopeExtension } from '../graphql/kit/scope.js';

/** Set by the service on every record. */
const ALWAYS_READ_ONLY = ['id', 'createdAt', 'updatedAt'];

/** The body of a POST that takes none (an action such as revoke): it sets nothing. */
const NO_FIELDS = z.strictObject({});

/** What a body does: make a record (a POST to a collection), change one (PUT), or run an action (any other POST). */
export type BodyRole = 'create' | 'update' | 'action';

export interface ServedRoute extends RestRoute {
  /** null: any valid credential (the operation filters by scope itself). */
  scope: Scope | null;
  /** Every POST and PUT reads a JSON object (absent: `{}`); other methods none. */
  body?: z.ZodType;
  role?: BodyRole;
  /**
   * The fields a create or update body may carry but cannot set (`id`,
   * `createdAt`, fields fixed at creation, a record's other shown fields): at
   * the record's own value they pass, so a record that was read can be sent
   * back; at another they are a 400 naming the field (kit/fixed-fields.ts). An
   * action's body is its input alone: none. Any other field the body schema
   * lacks is unknown (400).
   */
  readOnly: string[];
  /** The 400's words for each read-only field given another value than the record's. */
  fixedMessages: Record<string, string>;
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

function roleOf(row: RestRoute): BodyRole | undefined {
  if (row.method === 'put') return 'update';
  if (row.method !== 'post') return undefined;
  return row.path.includes(':') ? 'action' : 'create';
}

const fieldsOf = (schema: z.ZodType | undefined) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

function readOnlyFieldsOf(body: z.ZodType, response: z.ZodType | undefined): string[] {
  const settable = new Set(fieldsOf(body));
  return [...new Set([...ALWAYS_READ_ONLY, ...fieldsOf(response)])].filter((field) => !settable.has(field));
}

/** The 400's words: the action to use, or that the field is read-only (fixed at creation for an update). */
function fixedMessagesOf(row: RestRoute, role: BodyRole, readOnly: string[], createFields: Set<string>) {
  const why = (field: string) => {
    if (role === 'create') return `'${field}' is read-only: a create does not take it`;
    const fixed = createFields.has(field) ? 'is fixed when the record is created' : 'is read-only';
    return `'${field}' ${fixed}: send the record's own value, or leave it out`;
  };
  return Object.fromEntries(readOnly.map((field) => [field, row.actionOnly?.[field] ?? why(field)]));
}

/** A copy of the row whose getters run once, when first read (then the value is kept). */
function withLazyGetters(row: RestRoute): RestRoute {
  const copy = {} as RestRoute;
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(row))) {
    const read = descriptor.get;
    if (!read) {
      Object.defineProperty(copy, key, descriptor);
      continue;
    }
    Object.defineProperty(copy, key, {
      configurable: true,
      enumerable: descriptor.enumerable,
      get() {
        const value: unknown = read.call(row);
        Object.defineProperty(copy, key, { value, enumerable: descriptor.enumerable, writable: true });
        return value;
      },
    });
  }
  return copy;
}

export function servedRoutes(schema: GraphQLSchema, rows: readonly RestRoute[]): ServedRoute[] {
  return rows.map((row) => {
    // An upload's body is its file, not JSON.
    const body = row.body ?? (!row.upload && (row.method === 'post' || row.method === 'put') ? NO_FIELDS : undefined);
    const role = roleOf(row);
    const readOnly = body && (role === 'create' || role === 'update') ? readOnlyFieldsOf(body, row.response) : [];
    // An update's read-only fields that its create takes are fixed at creation (a payroll run's period).
    const create = rows.find((other) => other.method === 'post' && `${other.path}/:id` === row.path);
    const createFields = new Set(role === 'update' ? fieldsOf(create?.body) : []);
    // The row copied with its getters: a response schema made on demand (the events' payloads, a
    // few MB of zod objects) is made when the OpenAPI document asks for it, not at every start.
    const served = withLazyGetters(row);
    return Object.assign(served, {
      scope: rootFieldScope(schema, row.operation),
      body,
      role,
      readOnly,
      fixedMessages: role ? fixedMessagesOf(row, role, readOnly, createFields) : {},
    });
  });
}
