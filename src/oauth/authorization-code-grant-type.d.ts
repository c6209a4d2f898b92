// The library's authorization_code grant, which its index does not export;
// authorization-code-grant.ts extends it to answer RFC 6749's error codes.
declare module '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js' {
  import type OAuth2Server from '@node-oauth/oauth2-server';

  export default class AuthorizationCodeGrantType extends OAuth2Server.AbstractGrantType {
    handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
    verifyPKCE(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
    validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
  }
}
