// OAuth apps (clients): created with a client secret shown once and stored as
// a hash, listed, changed (narrowing the scopes narrows or ends the tokens
// already issued), deleted (with every code and token issued to them), their
// secret rotated; always within the caller's organization. The OAuth
// endpoints find and authenticate clients here too (by client_id, across
// organizations: the client_id names its organization).
import { generateOAuthSecret, OAUTH_PREFIX } from '../../../auth/oauth-token-format.js';
import type { Principal } from '../../../auth/principal.js';
import { hashIssuedSecret, randomToken, verifyIssuedSecret } from '../../../auth/secrets.js';
import type { Scope } from '../../../auth/scopes.js';
import { DomainError } from '../../../errors.js';
import type { Transaction } from '../../../db/prisma.js';
import type { OAuthApp as OAuthAppRow } from '../../../generated/prisma/client.js';
import { ID_PREFIX, newId } from '../../../ids.js';
import { emitEventBy } from '../../../events/emit.js';
import { parseInput } from '../../../validation.js';
import { changeCredentials } from '../../kit/credential-changes.js';
import { toPublic } from '../../kit/fields.js';
import { refuseChangedFixed, type FixedFields } from '../../kit/fixed-fields.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { changedAttributes, changedColumns, findOwned, lockOwned, requireWellFormedId } from '../../kit/records.js';
import { narrowAppTokens } from '../oauth-grant/narrow.js';
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

/** A client secret and its stored form (checked against the app's row, so the hash names its algorithm). */
function newClientSecret(): { value: string; hash: string } {
  const { value } = generateOAuthSecret('clientSecret');
  return { value, hash: hashIssuedSecret(value) };
}

/** A public app cannot keep a secret: PKCE is what binds its code to it (RFC 9700 2.1.1). */
function requirePkceForPublic(clientType: ClientType, requirePkce: boolean): void {
  if (clientType === 'public' && !requirePkce) {
    throw new DomainError('VALIDATION_ERROR', "'requirePkce': a public app always requires PKCE", 'requirePkce');
  }
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
    const requirePkce = data.requirePkce ?? true;
    requirePkceForPublic(clientType, requirePkce);
    const secret = clientType === 'confidential' ? newClientSecret() : undefined;
    const { organizationId } = principal;
    return this.db.prisma.$transaction(async (tx) => {
      const row = await tx.oAuthApp.create({
        data: {
          id: newId('oauthApp'),
          organizationId,
          name: data.name,
          description: data.description ?? null,
          clientId: OAUTH_PREFIX.clientId + randomToken(32),
          clientType,
          clientSecretHash: secret?.hash ?? null,
          redirectUris: data.redirectUris,
          scopes: data.scopes,
          requirePkce,
        },
      });
      const object = toPublic(OauthApp, row);
      await emitEventBy(tx, principal, { type: 'oauth_app.created', object });
      return { ...object, clientSecret: secret?.value ?? null };
    });
  }

  /**
   * Partial. Narrowing the scopes narrows the app's live tokens to the scopes
   * left, and ends those left with none, in the same transaction.
   */
  /** `fixed`: the read-only fields of a REST body, which must hold the app's own values (kit/fixed-fields.ts). */
  async update(principal: Principal, id: string, input: unknown, fixed?: FixedFields): Promise<OauthApp> {
    requireWellFormedId(ID_PREFIX.oauthApp, LABEL, id);
    const data = parseInput(oauthAppInput.update, input);
    for (const field of ['name', 'redirectUris', 'scopes', 'requirePkce'] as const) {
      if (data[field] === null) throw new DomainError('VALIDATION_ERROR', `'${field}' cannot be cleared`, field);
    }
    if (data.redirectUris) this.requireAllowedRedirectUris(data.redirectUris);
    const change = async (tx: Transaction) => {
      const row = await lockOwned<OAuthAppRow>(tx, 'OAuthApp', LABEL, principal.organizationId, id);
      refuseChangedFixed(toPublic(OauthApp, row), fixed, OauthApp);
      if (data.requirePkce != null) requirePkceForPublic(row.clientType as ClientType, data.requirePkce);
      const changes = changedColumns(row, {
        name: data.name,
        description: data.description,
        redirectUris: data.redirectUris,
        scopes: data.scopes,
        requirePkce: data.requirePkce,
      });
      const before = toPublic(OauthApp, row);
      if (Object.keys(changes).length === 0) return before;
      if (data.scopes && row.scopes.some((scope) => !data.scopes!.includes(scope as Scope))) {
        await narrowAppTokens(tx, id, data.scopes);
      }
      const object = toPublic(OauthApp, await tx.oAuthApp.update({ where: { id }, data: changes }));
      await emitEventBy(tx, principal, {
        type: 'oauth_app.updated',
        object,
        previousAttributes: changedAttributes(before, object),
      });
      return object;
    };
    // A scope change may end or narrow tokens: through the credential-change path, so every
    // process drops its cached copies of the app's tokens when it commits.
    return data.scopes ? changeCredentials(this.db, id, change) : this.db.prisma.$transaction(change);
  }

  /** Deletes the app and every code and token issued to it; its tokens stop at once in every process. */
  async delete(principal: Principal, id: string): Promise<boolean> {
    requireWellFormedId(ID_PREFIX.oauthApp, LABEL, id);
    await changeCredentials(this.db, id, async (tx) => {
      const row = await lockOwned<OAuthAppRow>(tx, 'OAuthApp', LABEL, principal.organizationId, id);
      await tx.oAuthApp.delete({ where: { id } });
      const object = toPublic(OauthApp, row);
      await emitEventBy(tx, principal, { type: 'oauth_app.deleted', object });
    });
    return true;
  }

  /** A new client secret, shown once; the old one stops at once (issued tokens stay valid). */
  async rotateSecret(principal: Principal, id: string): Promise<NewOauthApp> {
    requireWellFormedId(ID_PREFIX.oauthApp, LABEL, id);
    const secret = newClientSecret();
    return this.db.prisma.$transaction(async (tx) => {
      const row = await lockOwned<OAuthAppRow>(tx, 'OAuthApp', LABEL, principal.organizationId, id);
      if (row.clientType === 'public') {
        throw new DomainError('CONFLICT', 'A public client has no secret to rotate');
      }
      const updated = await tx.oAuthApp.update({ where: { id }, data: { clientSecretHash: secret.hash } });
      const object = toPublic(OauthApp, updated);
      await emitEventBy(tx, principal, {
        type: 'oauth_app.secret_rotated',
        object,
        previousAttributes: changedAttributes(toPublic(OauthApp, row), object),
      });
      return { ...object, clientSecret: secret.value };
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

  private find(principal: Principal, id: string): Promise<OAuthAppRow> {
    return findOwned(ID_PREFIX.oauthApp, LABEL, id, (id) =>
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
