// Who is calling: the result of resolving a Bearer credential, a signed-in
// browser's session (on /graphql only, src/oauth/session/graphql-credential.ts), or the
// operator (CLI, first-run bootstrap) acting with full rights in one organization.
/** What a principal was resolved from (Viewer.credentialType). */
export const CREDENTIAL_TYPES = ['api_key', 'access_token', 'session', 'operator'] as const;

export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** Who an event says made the change (docs/decisions.md, Events). */
export const ACTOR_TYPES = ['user', 'api_key', 'oauth_app', 'system'] as const;

export type ActorType = (typeof ACTOR_TYPES)[number];

/** The user, API key or OAuth app that made a change; system (id null): the worker, the operator. */
export interface Actor {
  type: ActorType;
  id: string | null;
}

export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system', id: null });

export interface Principal {
  organizationId: string;
  scopes: ReadonlySet<string>;
  credential: {
    type: CredentialType;
    /** The key, token or session id; 'operator' for the operator. */
    id: string;
  };
  /**
   * The user the credential acts for: a session's or a code-flow token's user, or
   * the creator of the API key (of a client_credentials token's key too). A key
   * this principal makes names it as its creator.
   */
  userId?: string;
  /**
   * Acting as the operator, for no user: the operator tools, or a key the operator
   * made (and its client_credentials tokens). Only such a principal makes a key
   * with no creator.
   */
  operator?: boolean;
  /**
   * Whose rate-limit budget the requests spend, when not the credential's own: a
   * client_credentials token spends its API key's, a code-flow token its app and
   * user's, a session its user's (`user:<id>`), so minting more tokens or
   * signing in again buys no more requests. Also who holds the credential
   * (credentialHolder).
   */
  rateLimitKey?: string;
  /**
   * Who the changes made with this credential are recorded as (actorOf): set
   * where the credential is resolved, which alone knows a client_credentials
   * token (its API key) from a code-flow token (its user).
   */
  actor?: Actor;
}

/**
 * The actor of a principal's changes: the one it was resolved with, else by its
 * credential: a session's user, an API key, a token's user; the operator is system.
 */
export function actorOf(principal: Principal): Actor {
  if (principal.actor) return principal.actor;
  const { credential, userId } = principal;
  if (credential.type === 'api_key') return { type: 'api_key', id: credential.id };
  if ((credential.type === 'session' || credential.type === 'access_token') && userId)
    return { type: 'user', id: userId };
  return SYSTEM_ACTOR;
}

/**
 * Who holds the credential, the same through the tokens it is renewed with: the API
 * key (for its client_credentials tokens too), or the OAuth app and user of a code-flow
 * token. Idempotency-Keys are scoped to it, so a refreshed token still gets its replay.
 */
export function credentialHolder(principal: Principal): string {
  return principal.rateLimitKey ?? principal.credential.id;
}

/** The operator tools' principal: `admin` in the organization they name (for a user there, when named). */
export function operatorPrincipal(organizationId: string, userId?: string): Principal {
  return {
    organizationId,
    scopes: new Set(['admin']),
    credential: { type: 'operator', id: 'operator' },
    userId,
    operator: true,
  };
}
