// OAuth apps (clients): created with a client secret shown once and stored as
// a hash, listed, changed, deleted (with every code and token issued to them),
// their secret rotated; always within the caller's organization. The OAuth
// endpoints find and authenticate clients here too (by client_id, across
// organizations: the client_id names its organization).
import { timingSafeEqual } from 'node:crypto';
import { generateOAuthSecret, OAUTH_PREFIX } from '../../../auth/oauth-token-format.js';
import type { Principal } from '../../../auth/principal.js';
import { randomToken, sha256Hex } from '../../../auth/secrets.js';
import type { Scope } from '../../../auth/scopes.js';
import { DomainError, notFound } from '../../../errors.js';
import type { OAuthApp as OAuthAppRow } from '../../../generated/prisma/client.js';
import { newId } from '../../../ids.js';
import { parseInput } from '../../../validation.js';
import { changeCredentials } from '../../kit/credential-changes.js';
import { toPublic } from '../../kit/fields.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { changedColumns, findOwned, lockOwned, requireWellFormedId } from '../../kit/records.js';
import { oauthAppInput, oauthAppList } from './input.js';
import { type NewOauthApp, OauthApp, type ClientType } from './type.js';

const LABEL = 'OAuth app';
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
  };
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class OauthAppService {
  constructor(private readonly db: ServiceDependencies) {}

  list(principal: Principal, args: unknown): Promise<Page<OauthApp>> {
    return listPage(this.db.pool, { table: 'OAuthApp', type: OauthApp, list: oauthAppList }, principal, args);
  }

  async get(principal: Principal, id: string): Promise<OauthApp> {
    return toPublic(OauthApp, await this.find(principal, id));
  }

  async create(principal: Principal, input: unknown): Promise<NewOauthApp> {
    const data = parseInput(oauthAppInput.create, input);
    this.requireAllowedRedirectUris(data.redirectUris);
    const clientType: ClientType = data.clientType ?? 'confidential';
    const secret = clientType === 'confidential' ? generateOAuthSecret('clientSecret') : undefined;
    const row = await this.db.prisma.oAuthApp.create({
      data: {
        id: newId('oauthApp'),
        organizationId: principal.organizationId,
        name: data.name,
        description: data.description ?? null,
        clientId: OAUTH_PREFIX.clientId + randomToken(32),
        clientType,
        clientSecretHash: secret?.hash ?? null,
        redirectUris: data.redirectUris,
        scopes: data.scopes,
      },
    });
    return { ...toPublic(OauthApp, row), clientSecret: secret?.value ?? null };
  }

  /** Partial. Narrowing the scopes also narrows what existing refresh tokens can obtain. */
  async update(principal: Principal, id: string, input: unknown): Promise<OauthApp> {
    requireWellFormedId('oauthApp', LABEL, id);
    const data = parseInput(oauthAppInput.update, input);
    for (const field of ['name', 'redirectUris', 'scopes'] as const) {
      if (data[field] === null) throw new DomainError('VALIDATION_ERROR', `'${field}' cannot be cleared`, field);
    }
    if (data.redirectUris) this.requireAllowedRedirectUris(data.redirectUris);
    return this.db.prisma.$transaction(async (tx) => {
      const row = await lockOwned<OAuthAppRow>(tx, 'OAuthApp', LABEL, principal.organizationId, id);
      const changes = changedColumns(row, {
        name: data.name,
        description: data.description,
        redirectUris: data.redirectUris,
        scopes: data.scopes,
      });
      if (Object.keys(changes).length === 0) return toPublic(OauthApp, row);
      return toPublic(OauthApp, await tx.oAuthApp.update({ where: { id }, data: changes }));
    });
  }

  /** Deletes the app and every code and token issued to it; its tokens stop at once in every process. */
  async delete(principal: Principal, id: string): Promise<boolean> {
    requireWellFormedId('oauthApp', LABEL, id);
    await changeCredentials(this.db, id, async (tx) => {
      const { count } = await tx.oAuthApp.deleteMany({ where: { id, organizationId: principal.organizationId } });
      if (count === 0) throw notFound(LABEL);
    });
    return true;
  }

  /** A new client secret, shown once; the old one stops at once (issued tokens stay valid). */
  async rotateSecret(principal: Principal, id: string): Promise<NewOauthApp> {
    requireWellFormedId('oauthApp', LABEL, id);
    const secret = generateOAuthSecret('clientSecret');
    return this.db.prisma.$transaction(async (tx) => {
      const row = await lockOwned<OAuthAppRow>(tx, 'OAuthApp', LABEL, principal.organizationId, id);
      if (row.clientType === 'public') {
        throw new DomainError('CONFLICT', 'A public client has no secret to rotate');
      }
      const updated = await tx.oAuthApp.update({ where: { id }, data: { clientSecretHash: secret.hash } });
      return { ...toPublic(OauthApp, updated), clientSecret: secret.value };
    });
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
    const presented = sha256Hex(secret ?? '');
    if (!row) return undefined;
    if (row.clientType === 'public') return secret === undefined ? clientOf(row) : undefined;
    if (secret === undefined || !row.clientSecretHash || !sameHash(presented, row.clientSecretHash)) return undefined;
    return clientOf(row);
  }

  /** The app of a client_id; a value that cannot be one is not looked up. */
  private async rowOf(clientId: string): Promise<OAuthAppRow | null> {
    return CLIENT_ID.test(clientId) ? this.db.prisma.oAuthApp.findUnique({ where: { clientId } }) : null;
  }

  private find(principal: Principal, id: string): Promise<OAuthAppRow> {
    return findOwned('oauthApp', LABEL, id, (id) =>
      this.db.prisma.oAuthApp.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
  }

  /**
   * Plain http only to the user's own machine (RFC 8252 7.3), https elsewhere; any http
   * with local conveniences on. Strict when no configuration says otherwise.
   */
  private requireAllowedRedirectUris(uris: readonly string[]): void {
    if (this.db.config?.localConveniences) return;
    for (const uri of uris) {
      const url = new URL(uri);
      const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
      if (url.protocol === 'http:' && !loopback) {
        throw new DomainError(
          'VALIDATION_ERROR',
          `'redirectUris': ${JSON.stringify(uri)} must use https (http is allowed for loopback addresses only)`,
          'redirectUris',
        );
      }
    }
  }
}
