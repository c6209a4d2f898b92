// Who is calling: the result of resolving a Bearer credential, or the operator
// (CLI, first-run bootstrap) acting with full rights in one organization.
export interface Principal {
  organizationId: string;
  scopes: ReadonlySet<string>;
  credential: { type: 'api_key'; id: string } | { type: 'access_token'; id: string } | { type: 'operator'; id: string };
  userId?: string;
  /**
   * Whose rate-limit budget the requests spend, when not the credential's own: a
   * client_credentials token spends its API key's, a code-flow token its app and
   * user's, so minting more tokens buys no more requests. Also who holds the
   * credential (credentialHolder).
   */
  rateLimitKey?: string;
}

/**
 * Who holds the credential, the same through the tokens it is renewed with: the API
 * key (for its client_credentials tokens too), or the OAuth app and user of a code-flow
 * token. Idempotency-Keys are scoped to it, so a refreshed token still gets its replay.
 */
export function credentialHolder(principal: Principal): string {
  return principal.rateLimitKey ?? principal.credential.id;
}

/** The operator tools' principal: `admin` in the organization they name. */
export function operatorPrincipal(organizationId: string, userId?: string): Principal {
  return { organizationId, scopes: new Set(['admin']), credential: { type: 'operator', id: 'operator' }, userId };
}
