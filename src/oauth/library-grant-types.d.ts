// The library's authorization_code and refresh_token grants, which its index
// does not export; authorization-code-grant.ts and refresh-token-grant.ts
// extend them (RFC 6749's error codes, refusing before rotating).
declare module '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js' {
  import type OAuth2Server from '@node-oauth/oauth2-server';

  export default class AuthorizationCodeGrantType extends OAuth2Server.AbstractGrantType {
    handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
    verifyPKCE(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
    validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
  }
}

declare module '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js' {
  import type OAuth2Server from '@node-oauth/oauth2-server';

  export default class RefreshTokenGrantType extends OAuth2Server.AbstractGrantType {
    handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
    getRefreshToken(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.RefreshToken>;
    revokeToken(token: OAuth2Server.RefreshToken): Promise<OAuth2Server.RefreshToken>;
    /** The requested scope within the refresh token's; throws invalid_scope otherwise. */
    getScope(request: OAuth2Server.Request, token?: OAuth2Server.RefreshToken): string[];
    saveToken(
      user: OAuth2Server.User,
      client: OAuth2Server.Client,
      scope: string[] | undefined,
    ): Promise<OAuth2Server.Token>;
  }
}
