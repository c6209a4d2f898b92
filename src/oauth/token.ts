// POST /oauth/token: the three grants through @node-oauth/oauth2-server. The
// library reads only form-encoded bodies, so a JSON body (as the specification
// shows) is read here and handed over relabelled as form-encoded (docs/decisions.md,
// "Authorization service (OAuth 2.0)").
// The answer is exactly RFC 6749 5.1's, never cached.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../graphql/modules.js';
import { AuthorizationCodeGrant } from './authorization-code-grant.js';
import type { OAuthParams } from './body.js';
import { basicCredentials } from './client-auth.js';
import { OAuthProblem, sendOAuthError } from './errors.js';
import { createModel } from './model.js';
import { RefreshTokenGrant } from './refresh-token-grant.js';

/** The grants this server issues tokens for (the metadata's grant_types_supported). */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

/**
 * RFC 6749 5.2: a grant type the server does not support is unsupported_grant_type.
 * The library knows `password` (we do not offer it) and checks the client before the
 * grant type, so its answer to `password` was unauthorized_client: checked first here.
 */
function requireSupportedGrantType(params: OAuthParams): void {
  const grantType = params.grant_type;
  if (grantType === undefined || (GRANT_TYPES as readonly string[]).includes(grantType)) return;
  throw new OAuthProblem('unsupported_grant_type', `Unsupported grant type: use one of ${GRANT_TYPES.join(', ')}`);
}

export interface TokenEndpointOptions {
  services: Services;
  logger: Logger;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeSeconds: number;
}

function headersOf(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers[name] = value;
  }
  headers['content-type'] = 'application/x-www-form-urlencoded';
  // RFC 6749 2.3.1 form-urlencodes both parts before base64 (openid-client does: _ becomes %5F);
  // the library's Basic parser does not decode them, so hand it the decoded pair.
  const basic = basicCredentials(req.headers.authorization);
  if (basic) headers.authorization = `Basic ${Buffer.from(`${basic.clientId}:${basic.secret}`).toString('base64')}`;
  return headers;
}

export function tokenEndpoint(options: TokenEndpointOptions) {
  const server = new OAuth2Server({
    model: createModel(options.services, { accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds }),
    accessTokenLifetime: options.accessTokenLifetimeSeconds,
    refreshTokenLifetime: options.refreshTokenLifetimeSeconds,
    // Public clients (PKCE, no secret) exchange codes and refresh; the model refuses a confidential client without its secret.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    alwaysIssueNewRefreshToken: true,
    // Replace the library's own: RFC 6749's error codes (authorization-code-grant.ts), a
    // refused refresh that leaves its token unspent (refresh-token-grant.ts).
    extendedGrantTypes: { authorization_code: AuthorizationCodeGrant, refresh_token: RefreshTokenGrant },
  });

  return async (req: Request, res: Response, params: OAuthParams): Promise<void> => {
    const request = new OAuth2Server.Request({ method: 'POST', query: {}, headers: headersOf(req), body: params });
    const response = new OAuth2Server.Response();
    let token: OAuth2Server.Token;
    try {
      requireSupportedGrantType(params);
      token = await server.token(request, response);
    } catch (error) {
      // The library's own challenge (realm "Service", Basic only) is replaced by ours: errors.ts.
      return sendOAuthError(res, error, options.logger);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    res.status(200).json({
      access_token: token.accessToken,
      token_type: 'Bearer',
      expires_in: token.expiresIn as number,
      ...(token.refreshToken && { refresh_token: token.refreshToken }),
      scope: (token.scope ?? []).join(' '),
    });
  };
}
