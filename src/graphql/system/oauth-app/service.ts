// The OAuth apps' service: the kit's (list, get, create, update, delete,
// rotateSecret), its answers typed with the secret, and what the OAuth endpoints
// ask of a client: found by client_id and authenticated by its secret, across
// organizations (the client_id names its organization).
import type { Principal } from '../../../auth/principal.js';
import { verifyIssuedSecret } from '../../../auth/secrets.js';
import { OAUTH_PREFIX } from '../../../auth/oauth-token-format.js';
import type { Scope } from '../../../auth/scopes.js';
import type { OAuthApp as OAuthAppRow } from '../../../generated/prisma/client.js';
import { ResourceService } from '../../kit/resource-service.js';
import type { ClientType, NewOauthApp, OauthApp } from './type.js';

const CLIENT_ID = new RegExp(`^${OAUTH_PREFIX.clientId}[0-9A-Za-z]{32}$`);

/** What the OAuth endpoints need to know of a client. */
export interface OAuthClient {
  id: string;
  organizationId: string;
  clientId: string;
  clientType: ClientType;
  name: string;
  description: string | null;
  redirectUris: string[];
  scopes: Scope[];
  /** Authorization requests must carry a PKCE challenge. */
  requirePkce: boolean;
}

function clientOf(row: OAuthAppRow): OAuthClient {
  return {
    id: row.id,
    organizationId: row.organizationId,
    clientId: row.clientId,
    clientType: row.clientType as ClientType,
    name: row.name,
    description: row.description,
    redirectUris: row.redirectUris,
    scopes: row.scopes as Scope[],
    requirePkce: row.requirePkce || row.clientType === 'public',
  };
}

export class OauthAppService extends ResourceService<OauthApp> {
  /** A new app; `clientSecret` is in this answer only (null for a public app). */
  override create(principal: Principal, input: unknown, parsed = false): Promise<NewOauthApp> {
    return super.create(principal, input, parsed) as Promise<NewOauthApp>;
  }

  /** A new client secret, shown once; the old one stops at once (issued tokens stay valid). */
  rotateSecret(principal: Principal, id: string): Promise<NewOauthApp> {
    return this.act(principal, 'rotateSecret', id, {}) as Promise<NewOauthApp>;
  }

  /** For operator tools that name an app but not its organization. */
  async organizationOf(id: string): Promise<string | undefined> {
    const row = await this.db.prisma.oAuthApp.findUnique({ where: { id }, select: { organizationId: true } });
    return row?.organizationId;
  }

  /** The client with this client_id, in any organization; undefined when there is none. */
  async findClient(clientId: string): Promise<OAuthClient | undefined> {
    const row = await this.rowOf(clientId);
    return row ? clientOf(row) : undefined;
  }

  /**
   * The client if `secret` is its secret (confidential clients) or absent
   * (public clients); undefined otherwise. A public client presenting a secret
   * is refused: it has none, so something is confused.
   */
  async authenticateClient(clientId: string, secret: string | undefined): Promise<OAuthClient | undefined> {
    const row = await this.rowOf(clientId);
    // Hash even when there is no such client, so timing does not tell which client ids exist.
    const check = await verifyIssuedSecret(secret ?? '', row?.clientSecretHash);
    if (!row) return undefined;
    if (row.clientType === 'public') return secret === undefined ? clientOf(row) : undefined;
    if (secret === undefined || !check.valid) return undefined;
    if (check.upgrade) {
      // A bare SHA-256 from before hashes named their algorithm; the app's updatedAt stays.
      await this.db.prisma.oAuthApp.updateMany({
        where: { id: row.id },
        data: { clientSecretHash: check.upgrade, updatedAt: row.updatedAt },
      });
    }
    return clientOf(row);
  }

  /** The app of a client_id; a value that cannot be one is not looked up. */
  private async rowOf(clientId: string): Promise<OAuthAppRow | null> {
    return CLIENT_ID.test(clientId) ? this.db.prisma.oAuthApp.findUnique({ where: { clientId } }) : null;
  }
}
