// The answer a full load of a list would ask /graphql for first, written into the
// page instead (page.ts), so the list is drawn as the script runs, with no round
// trip: the same operation and variables the browser's list page builds
// (list-operation.ts), run for the principal /graphql makes of the same session,
// on the same schema with /graphql's field resolver (a scoped field is null
// without its scope, as Apollo answers). The browser takes it only when its own
// first query and variables are exactly these (client/first-answer.ts); anything
// else, and any error, and the page asks /graphql as before.
import { execute, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Principal } from '../auth/principal.js';
import { createContext } from '../graphql/context.js';
import { scopedFieldResolver } from '../graphql/kit/field-scopes.js';
import type { Services } from '../graphql/modules.js';
import type { Catalogue } from './catalogue-shape.js';
import { catalogueLookup, listQuery, listVariables } from './list-operation.js';

/** What the page carries (client/first-answer.ts reads it). */
export interface FirstAnswer {
  query: string;
  variables: Record<string, unknown>;
  /** As /graphql's `data`: GraphQL's names, which the browser converts as it does any answer. */
  data: unknown;
}

/**
 * Variables the browser renames before sending (client/wire-values.ts: scopes and
 * event types): not done here, so a list filtered by one is left to the browser.
 */
const RENAMED = new Set(['scopes', 'events', 'type']);

/** Parsed and validated once per text: one list operation per resource the catalogue holds. */
const documents = new Map<string, DocumentNode | null>();

function documentOf(schema: GraphQLSchema, query: string): DocumentNode | null {
  let document = documents.get(query);
  if (document === undefined) {
    const parsed = parse(query);
    document = validate(schema, parsed).length ? null : parsed;
    documents.set(query, document);
  }
  return document;
}

/** The answer for the list at `path` (under /dashboard) and `search`, or undefined when it is not a list. */
export async function firstAnswer({
  schema,
  services,
  principal,
  catalogue,
  path,
  search,
}: {
  schema: GraphQLSchema;
  services: Services;
  principal: Principal;
  /** The viewer's catalogue, as the page carries it. */
  catalogue: Catalogue;
  path: string;
  search: string;
}): Promise<FirstAnswer | undefined> {
  const entry = catalogue.find((candidate) => candidate.path === path);
  if (!entry) return undefined;
  const variables = listVariables(entry, new URLSearchParams(search));
  if (Object.keys(variables).some((name) => RENAMED.has(name))) return undefined;
  const query = listQuery(entry, catalogueLookup(catalogue));
  const document = documentOf(schema, query);
  if (!document) return undefined;
  const result = await execute({
    schema,
    document,
    variableValues: variables,
    contextValue: createContext(services, principal),
    fieldResolver: scopedFieldResolver,
  });
  return result.errors?.length ? undefined : { query, variables, data: result.data };
}
