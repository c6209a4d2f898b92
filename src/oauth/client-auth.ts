// Client authentication for the revocation and introspection endpoints (the
// token endpoint's is the library's): HTTP Basic (RFC 6749 2.3.1, each part
// form-urlencoded) or client_id and client_secret in the body, not both.
import type { Request } from 'express';
import type { Services } from '../graphql/modules.js';
import type { OAuthParams } from './body.js';
import { invalidClient, OAuthProblem } from './errors.js';
import { findClient, type Client } from './model.js';

interface Credentials {
  clientId?: string;
  secret?: string;
}

/** HTTP Basic client credentials, each part form-urlencoded (RFC 6749 2.3.1), decoded. */
export function basicCredentials(header: string | undefined): Credentials | undefined {
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient('The Basic credentials must be client_id:client_secret');
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw invalidClient('The Basic credentials are not form-urlencoded');
  }
}

export async function authenticateClient(
  req: Request,
  params: OAuthParams,
  services: Services,
  { confidentialOnly }: { confidentialOnly: boolean },
): Promise<Client> {
  const basic = basicCredentials(req.headers.authorization);
  if (basic && (params.client_secret !== undefined || (params.client_id && params.client_id !== basic.clientId))) {
    throw new OAuthProblem('invalid_request', 'Authenticate the client one way: HTTP Basic or the body, not both');
  }
  const { clientId, secret } = basic ?? { clientId: params.client_id, secret: params.client_secret };
  if (!clientId) throw invalidClient('Client authentication is required');
  // Lifetimes do not matter here: nothing is issued.
  const client = await findClient(services, clientId, secret || undefined, 1);
  if (!client) throw invalidClient();
  if (confidentialOnly && client.kind === 'app' && client.app.clientType === 'public') {
    throw invalidClient('Only confidential clients may introspect tokens');
  }
  return client;
}

/** Whether the token was issued to this client. */
export function issuedTo(client: Client, token: { appId: string | null; apiKeyId: string | null }): boolean {
  return client.kind === 'app' ? token.appId === client.id : token.apiKeyId === client.id;
}
