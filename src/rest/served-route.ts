// A route row as served: with the scope its operation's root field declares
// (@Requires, recorded in the schema's field extensions). Reading it off the
// schema keeps the scope written once, on the resolver.
import { parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { Scope } from '../auth/scopes.js';
import type { RestRoute } from '../graphql/kit/routes.js';
import type { ScopeExtension } from '../graphql/kit/scope.js';

export interface ServedRoute extends RestRoute {
  /** null: any valid credential (the operation filters by scope itself). */
  scope: Scope | null;
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

export function servedRoutes(schema: GraphQLSchema, rows: readonly RestRoute[]): ServedRoute[] {
  return rows.map((row) => ({ ...row, scope: rootFieldScope(schema, row.operation) }));
}
