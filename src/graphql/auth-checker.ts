// Scopes on GraphQL operations: @Authorized('crm:read') names the scope needed;
// `admin` implies every scope. Failures are errors with the REST codes, and a
// missing scope is named so the caller knows what to ask for.
import type { AuthChecker } from 'type-graphql';
import type { Principal } from '../auth/principal.js';
import { hasScope, isScope } from '../auth/scopes.js';
import { DomainError } from '../errors.js';
import { unauthorized } from '../auth/credentials.js';
import type { Context } from './context.js';

export function requirePrincipal(ctx: Context): Principal {
  if (!ctx.principal) throw ctx.authError ?? unauthorized();
  return ctx.principal;
}

export function missingScope(scope: string): DomainError {
  return new DomainError('FORBIDDEN', `This operation requires the '${scope}' scope`);
}

export const authChecker: AuthChecker<Context> = ({ context }, scopes) => {
  const principal = requirePrincipal(context);
  for (const scope of scopes) {
    if (!isScope(scope) || !hasScope(principal.scopes, scope)) throw missingScope(scope);
  }
  return true;
};
