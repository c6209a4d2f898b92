// The storage model that @node-oauth/oauth2-server runs its grants over
// (authorization_code, refresh_token, client_credentials), backed by the
// services. The library checks the protocol (code expiry, client binding,
// redirect URI, PKCE, scope narrowing on refresh); what it does not do is here:
// public clients without secrets, single use with reuse detection for codes
// and refresh tokens, API keys as clients, and scopes bounded by what the app
// and the user may hold now (a role or the app may have changed since consent).
import OAuth2Server from '@node-oauth/oauth2-server';
import { API_KEY_PREFIX } from '../auth/api-key-format.js';
import { generateOAuthSecret } from '../auth/oauth-token-format.js';
import { hasScope, isScope, type Scope } from '../auth/scopes.js';
import { grantableScopes, type UserRights } from '../auth/user-scopes.js';
import type { Services } from '../graphql/modules.js';
import type { ClientKey } from '../graphql/system/api-key/service.js';
import type { OAuthClient } from '../graphql/system/oauth-app/service.js';

export type AppClient = OAuth2Server.Client & { kind: 'app'; app: OAuthClient };
export type KeyClient = OAuth2Server.Client & { kind: 'api_key'; key: ClientKey };
export type Client = AppClient | KeyClient;

/** The "user" of a token: a user through an app's grant, or an API key. */
type TokenUser = { organizationId: string } & ({ id: string; grantId: string } | { apiKeyId: string });

export interface ModelOptions {
  accessTokenLifetimeSeconds: number;
}

/** What a grant may still hold: its scopes within the app's and the user's current ones. */
function stillGrantable(scopes: readonly string[], appScopes: readonly string[], user: UserRights): Scope[] {
  return grantableScopes(
    user,
    scopes.filter((name): name is Scope => isScope(name) && appScopes.includes(name)),
  );
}

export type Model = OAuth2Server.AuthorizationCodeModel &
  OAuth2Server.RefreshTokenModel &
  OAuth2Server.ClientCredentialsModel;

/** Resolves client credentials: an app (by client_id and secret, or none for public ones) or an API key and its secret. */
export async function findClient(
  services: Services,
  clientId: string,
  secret: string | undefined,
  accessTokenLifetimeSeconds: number,
): Promise<Client | undefined> {
  if (clientId.startsWith(API_KEY_PREFIX)) {
    if (!secret) return undefined;
    const key = await services.apiKeys.verifyClientCredentials(clientId, secret);
    if (!key) return undefined;
    // A token lives no longer than the key it came from.
    const remaining = key.expiresAt ? Math.floor((key.expiresAt.getTime() - Date.now()) / 1000) : Infinity;
    if (remaining < 1) return undefined;
    return {
      kind: 'api_key',
      id: key.id,
      grants: ['client_credentials'],
      key,
      accessTokenLifetime: Math.min(accessTokenLifetimeSeconds, remaining),
    };
  }
  const app = await services.oauthApps.authenticateClient(clientId, secret);
  if (!app) return undefined;
  return {
    kind: 'app',
    id: app.id,
    grants: ['authorization_code', 'refresh_token'],
    redirectUris: app.redirectUris,
    app,
  };
}

export function createModel(services: Services, options: ModelOptions): Model {
  const grants = services.oauthGrants;
  return {
    async getClient(clientId: string, clientSecret: string | undefined) {
      return (
        (await findClient(services, clientId, clientSecret || undefined, options.accessTokenLifetimeSeconds)) ?? false
      );
    },

    generateAccessToken: async () => generateOAuthSecret('accessToken').value,
    generateRefreshToken: async () => generateOAuthSecret('refreshToken').value,

    async getAuthorizationCode(value: string) {
      const code = await grants.findCode(value);
      if (!code) return false;
      const user: TokenUser = { id: code.userId, organizationId: code.organizationId, grantId: code.id };
      return {
        authorizationCode: value,
        expiresAt: code.expiresAt,
        redirectUri: code.redirectUri,
        // Possibly none left: validateScope refuses that once the code is spent.
        scope: stillGrantable(code.scopes, code.appScopes, code.user),
        client: { id: code.appId, grants: [] },
        user,
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
        grantId: code.id,
      };
    },

    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode) {
      return grants.consumeCode(code.grantId as string);
    },

    async validateScope(_user: OAuth2Server.User, client: OAuth2Server.Client, scope?: string[]) {
      const c = client as Client;
      if (c.kind === 'api_key') {
        // client_credentials: the key's scopes, or fewer when asked.
        if (!scope) return c.key.scopes;
        return scope.every((name) => isScope(name) && hasScope(new Set(c.key.scopes), name)) ? scope : false;
      }
      // authorization_code: what was consented to, within what the app and the user hold now.
      if (!scope?.length) {
        throw new OAuth2Server.InvalidGrantError(
          'Invalid grant: the user or the app no longer holds any of the scopes consented to',
        );
      }
      return scope;
    },

    async saveToken(token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuth2Server.User) {
      const c = client as Client;
      const owner = user as TokenUser;
      await grants.saveTokens({
        organizationId: owner.organizationId,
        scopes: token.scope ?? [],
        accessToken: token.accessToken,
        accessTokenExpiresAt: token.accessTokenExpiresAt!,
        ...('apiKeyId' in owner
          ? { apiKeyId: owner.apiKeyId }
          : {
              appId: c.id,
              userId: owner.id,
              grantId: owner.grantId,
              refreshToken: token.refreshToken,
              refreshTokenExpiresAt: token.refreshTokenExpiresAt,
            }),
      });
      return {
        ...token,
        client,
        user,
        expiresIn: c.accessTokenLifetime ?? options.accessTokenLifetimeSeconds,
      };
    },

    async getRefreshToken(value: string) {
      const stored = await grants.findRefreshToken(value);
      if (!stored) return false;
      // No more than the app may hold and the user may grant now.
      const scopes = stillGrantable(stored.scopes, stored.appScopes, stored.user);
      if (scopes.length === 0) return false;
      const user: TokenUser = { id: stored.userId, organizationId: stored.organizationId, grantId: stored.grantId };
      return {
        refreshToken: value,
        refreshTokenExpiresAt: stored.expiresAt,
        scope: scopes,
        client: { id: stored.appId, grants: [] },
        user,
        refreshTokenId: stored.id,
      };
    },

    async revokeToken(token: OAuth2Server.RefreshToken | OAuth2Server.Token) {
      const user = token.user as TokenUser & { grantId: string };
      return grants.rotateRefreshToken(token.refreshTokenId as string, user.grantId);
    },

    async getUserFromClient(client: OAuth2Server.Client) {
      const c = client as KeyClient;
      const user: TokenUser = { apiKeyId: c.key.id, organizationId: c.key.organizationId };
      return user;
    },

    // Codes are issued by the consent page (authorize.ts), which the library's authorize handler does not serve.
    async saveAuthorizationCode() {
      throw new Error('authorization codes are issued by src/oauth/authorize.ts');
    },

    // Bearer tokens are checked by the credential resolver (src/auth/credentials.ts), not here.
    async getAccessToken() {
      return false;
    },
  };
}
