// The authorization_code grant of @node-oauth/oauth2-server with RFC 6749 5.2's
// error codes where the library's differ: a missing parameter (code_verifier
// for a code issued with a PKCE challenge, redirect_uri) is invalid_request,
// and a redirect_uri other than the authorization request's is invalid_grant
// (the grant "does not match the redirection URI used in the authorization
// request"). The library spends the code before these checks, and so do we:
// a request that gets them wrong may have come from someone else.
import OAuth2Server from '@node-oauth/oauth2-server';
import AuthorizationCodeGrantType from '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js';

export class AuthorizationCodeGrant extends AuthorizationCodeGrantType {
  override verifyPKCE(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void {
    if (code.codeChallenge && !request.body.code_verifier) {
      throw new OAuth2Server.InvalidRequestError('Missing parameter: `code_verifier`');
    }
    super.verifyPKCE(request, code);
  }

  override validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void {
    // RFC 6749 4.1.3: required when the authorization request had one (ours always do), and identical.
    if (!code.redirectUri) return;
    const given: unknown = request.body.redirect_uri;
    if (!given) throw new OAuth2Server.InvalidRequestError('Missing parameter: `redirect_uri`');
    if (given !== code.redirectUri) {
      throw new OAuth2Server.InvalidGrantError(
        'Invalid grant: `redirect_uri` differs from the one of the authorization request',
      );
    }
  }
}
