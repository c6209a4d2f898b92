// GET /.well-known/oauth-authorization-server (RFC 8414): what a client library
// needs to find the endpoints and know what they accept.
import type { Request, Response } from 'express';
import { SCOPES } from '../auth/scopes.js';
import { GRANT_TYPES } from './token.js';

export function serverMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    scopes_supported: [...SCOPES],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    // RFC 9207: the authorization response names the issuer, against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/v1/openapi.json`,
  };
}

export function metadataHandler(issuer: string) {
  const body = serverMetadata(issuer);
  return (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(body);
  };
}
