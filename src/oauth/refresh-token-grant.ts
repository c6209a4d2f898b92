// The refresh_token grant of @node-oauth/oauth2-server, refusing a scope before
// it rotates: the library rotates the refresh token first and checks the
// requested scope after, so a request refused with invalid_scope spent the
// token, and the client's retry with it counted as reuse and revoked the grant.
// A refused request must leave the token as it was (RFC 6749 5.2).
import type OAuth2Server from '@node-oauth/oauth2-server';
import RefreshTokenGrantType from '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js';

export class RefreshTokenGrant extends RefreshTokenGrantType {
  override async handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token> {
    const token = await this.getRefreshToken(request, client);
    const scope = this.getScope(request, token);
    await this.revokeToken(token);
    return this.saveToken(token.user, client, scope);
  }
}
