// What is particular to an OAuth app, as the kit's rules: the redirect URIs a
// deployment accepts, PKCE for public apps, the client_id and the client secret
// (shown once, stored as a hash; a public app has none), and what a change of
// its scopes or its deletion does to the tokens already issued.
import { generateOAuthSecret, OAUTH_PREFIX } from '../../../auth/oauth-token-format.js';
import { hashIssuedSecret, randomToken } from '../../../auth/secrets.js';
import type { Config } from '../../../config.js';
import { DomainError } from '../../../errors.js';
import type { Rules } from '../../kit/resource.js';
import type { SecretDeclaration } from '../../kit/secrets.js';
import { narrowAppTokens } from '../oauth-grant/narrow.js';
import { NewOauthApp, type ClientType, type OauthApp } from './type.js';

/** A public app cannot keep a secret: PKCE is what binds its code to it (RFC 9700 2.1.1). */
function requirePkceForPublic(clientType: ClientType, requirePkce: boolean): void {
  if (clientType === 'public' && !requirePkce) {
    throw new DomainError('VALIDATION_ERROR', "'requirePkce': a public app always requires PKCE", 'requirePkce');
  }
}

/**
 * Plain http only to the user's own machine (RFC 8252 7.3), https elsewhere; any http
 * with local conveniences on. Strict when no configuration says otherwise.
 */
function requireAllowedRedirectUris(config: Config | undefined, uris: readonly string[]): void {
  if (config?.localConveniences) return;
  for (const uri of uris) {
    const url = new URL(uri);
    const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
    if (url.protocol === 'http:' && !loopback) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `'redirectUris': ${JSON.stringify(uri)} must use https (http is allowed for loopback addresses only)`,
        'redirectUris',
      );
    }
  }
}

export const oauthAppRules: Rules<OauthApp> = {
  async create(values, rules) {
    requireAllowedRedirectUris(rules.config, values.redirectUris as string[]);
    const clientType = (values.clientType ?? 'confidential') as ClientType;
    const requirePkce = (values.requirePkce ?? true) as boolean;
    requirePkceForPublic(clientType, requirePkce);
    return { clientType, requirePkce, clientId: OAUTH_PREFIX.clientId + randomToken(32) };
  },

  /** Narrowing the scopes narrows the app's live tokens to those left, and ends those left with none. */
  async update({ before, given = {} }, rules) {
    if (given.requirePkce === null) {
      throw new DomainError('VALIDATION_ERROR', "'requirePkce' cannot be cleared", 'requirePkce');
    }
    if (given.redirectUris) requireAllowedRedirectUris(rules.config, given.redirectUris as string[]);
    if (given.requirePkce != null) requirePkceForPublic(before.clientType as ClientType, given.requirePkce as boolean);
    const scopes = given.scopes as string[] | undefined;
    if (!scopes) return;
    if (before.scopes.some((scope) => !scopes.includes(scope))) await narrowAppTokens(rules, before.id, scopes);
    // Every process drops its cached copies of the app's tokens, and reads the new scopes.
    await rules.endCredentials!(before.id);
  },

  /** Its codes and tokens go with it (ON DELETE CASCADE) and stop at once in every process. */
  async delete(app, rules) {
    await rules.endCredentials!(app.id);
  },
};

/** The client secret (`bpcs_…`), shown once; a public app has none. */
export const clientSecret: SecretDeclaration = {
  type: NewOauthApp,
  issue(app) {
    if (app.clientType === 'public') return { columns: { clientSecretHash: null }, shown: { clientSecret: null } };
    const { value } = generateOAuthSecret('clientSecret');
    return { columns: { clientSecretHash: hashIssuedSecret(value) }, shown: { clientSecret: value } };
  },
};

/** A rotation's check: a public app has no secret. */
export function refusePublic(_input: unknown, app: OauthApp): Record<string, unknown> {
  if (app.clientType === 'public') throw new DomainError('CONFLICT', 'A public client has no secret to rotate');
  return {};
}
