// POST /oauth/revoke (RFC 7009) and POST /oauth/introspect (RFC 7662). A client
// may revoke or inspect only tokens issued to it; anyone else's token, or an
// unknown one, is answered as if it did not exist (200 to revocation,
// active: false to introspection), so neither endpoint tells which tokens exist.
import type { Request, Response } from 'express';
import type { Services } from '../graphql/modules.js';
import type { OAuthParams } from './body.js';
import { authenticateClient, issuedTo } from './client-auth.js';
import { OAuthProblem } from './errors.js';

function requireToken(params: OAuthParams): string {
  if (!params.token) throw new OAuthProblem('invalid_request', 'token is missing');
  return params.token;
}

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

export function revocationEndpoint(services: Services) {
  return async (req: Request, res: Response, params: OAuthParams): Promise<void> => {
    const client = await authenticateClient(req, params, services, { confidentialOnly: false });
    const token = await services.oauthGrants.findToken(requireToken(params));
    // A refresh token ends its whole grant; an access token ends alone (RFC 7009 2.1).
    if (token && issuedTo(client, token)) await services.oauthGrants.revokeToken(token);
    noStore(res);
    // RFC 7009 asks for 200 and nothing else; an empty JSON object suits clients that parse every answer.
    res.status(200).json({});
  };
}

export function introspectionEndpoint(services: Services, issuer: string) {
  return async (req: Request, res: Response, params: OAuthParams): Promise<void> => {
    const client = await authenticateClient(req, params, services, { confidentialOnly: true });
    const token = await services.oauthGrants.findToken(requireToken(params));
    noStore(res);
    if (!token || !token.active || !issuedTo(client, token)) return void res.json({ active: false });
    res.json({
      active: true,
      scope: token.scopes.join(' '),
      client_id: client.kind === 'app' ? client.app.clientId : token.apiKeyId,
      ...(token.kind === 'access_token' && { token_type: 'Bearer' }),
      exp: Math.floor(token.expiresAt.getTime() / 1000),
      iat: Math.floor(token.createdAt.getTime() / 1000),
      sub: token.userId ?? token.apiKeyId,
      iss: issuer,
      organization_id: token.organizationId,
    });
  };
}
