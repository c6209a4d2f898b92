// The one place an operation's scope is declared: `@Requires('crm:read')` on the
// resolver method. It makes type-graphql's authChecker enforce the scope and
// records it in the schema field's extensions, where the REST facade reads it
// (to answer 403 before looking at a body) and the OpenAPI document shows it.
import { Authorized, Extensions } from 'type-graphql';
import type { Scope } from '../../auth/scopes.js';

export interface ScopeExtension {
  /** The scope the operation needs; null: any valid credential. */
  scope: Scope | null;
}

export function Requires(scope?: Scope): MethodDecorator {
  return (target, key, descriptor) => {
    (scope ? Authorized(scope) : Authorized())(target, key, descriptor);
    Extensions({ scope: scope ?? null } satisfies ScopeExtension)(target, key, descriptor);
  };
}
