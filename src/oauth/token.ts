// POST /oauth/token: the three grants through @node-oauth/oauth2-server. The
// library reads only form-encoded bodies, so a JSON body (as the specification
// shows) is read here and handed over relabelled as form-encoded (STACK.md).
// The answer is exactly RFC 6749 5.1's, never cached.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../graphql/modules.js';
import { AuthorizationCodeGrant } from './authorization-code-grant.js';
import type { OAuthParams } from './body.js';
import { basicCredentials } from './client-auth.js';
import { sendOAuthError } from './errors.js';
import { createModel } from './model.js';

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
    // Replaces the library's own, for RFC 6749's error codes (authorization-code-grant.ts).
    extendedGrantTypes: { authorization_code: AuthorizationCodeGrant },
  });

  return async (req: Request, res: Response, params: OAuthParams): Promise<void> => {
    const request = new OAuth2Server.Request({ method: 'POST', query: {}, headers: headersOf(req), body: params });
    const response = new OAuth2Server.Response();
    let token: OAuth2Server.Token;
    try {
      token = await server.token(request, response);
    } catch (error) {
      const challenge = response.get('WWW-Authenticate') as string | undefined;
      if (challenge) res.setHeader('WWW-Authenticate', challenge);
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
