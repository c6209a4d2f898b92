// A REST route is a row: method, path, scope, the GraphQL operation it runs,
// how the request becomes variables, and how the result becomes the answer.
// The OpenAPI document is generated from these rows and their schemas.
import type { z } from 'zod';
import type { Scope } from '../auth/scopes.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteInput<Q, B> {
  params: Record<string, string>;
  query: Q;
  body: B;
}

export interface RestRoute<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Express-style path under /v1, e.g. /crm/contacts/:id */
  path: string;
  /** Scope required; null: any valid credential (the operation filters by scope). */
  scope: Scope | null;
  tag: string;
  summary: string;
  description?: string;
  /** GraphQL document with one operation selecting one root field. */
  operation: string;
  query?: Q;
  body?: B;
  variables(input: RouteInput<z.output<Q>, z.output<B>>): Record<string, unknown>;
  status: 200 | 201 | 204;
  /** The response body's schema, for the OpenAPI document. */
  response?: z.ZodType;
}

/** Keeps each row's query/body types tied to its variables function. */
export function route<Q extends z.ZodType, B extends z.ZodType>(row: RestRoute<Q, B>): RestRoute {
  return row as unknown as RestRoute;
}
