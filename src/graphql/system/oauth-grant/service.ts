// What the OAuth endpoints store: authorization codes, access tokens and
// refresh tokens, each only as the SHA-256 of its value. A grant is the chain
// of tokens that started with one code (its id is the code's id): reusing the
// code, or presenting a refresh token that was already rotated, revokes the
// whole chain, because either means someone else holds a copy (RFC 9700 2.2.2,
// 4.14). Revocations reach every server process's credential cache at once
// through NOTIFY (see auth/credentials.ts).
import { generateOAuthSecret, looksLike } from '../../../auth/oauth-token-format.js';
import { sha256Hex } from '../../../auth/secrets.js';
import type { Scope } from '../../../auth/scopes.js';
import type { UserRights } from '../../../auth/user-scopes.js';
import type { OAuthCode as CodeRow } from '../../../generated/prisma/client.js';
import { newId } from '../../../ids.js';
import { changeCredentials } from '../../kit/credential-changes.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { ServiceDependencies } from '../../kit/module.js';

/** RFC 6749 4.1.2 recommends at most 10 minutes. */
export const CODE_LIFETIME_SECONDS = 600;

export interface NewCode {
  appId: string;
  userId: string;
  organizationId: string;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

export interface StoredCode extends NewCode {
  id: string;
  expiresAt: Date;
  /** What the user may grant now, and what the app may hold now: an exchange gets no more. */
  user: UserRights;
  appScopes: string[];
}

export interface NewTokens {
  organizationId: string;
  scopes: string[];
  accessToken: string;
  accessTokenExpiresAt: Date;
  /** Code flow and refresh: the app, the user and the grant. */
  appId?: string;
  userId?: string;
  grantId?: string;
  /** client_credentials: the API key that asked. */
  apiKeyId?: string;
  refreshToken?: string;
  refreshTokenExpiresAt?: Date;
}

export interface StoredRefreshToken {
  id: string;
  organizationId: string;
  appId: string;
  userId: string;
  grantId: string;
  scopes: string[];
  expiresAt: Date;
  /** What the user may grant now, and what the app may hold now: a refresh gets no more. */
  user: UserRights;
  appScopes: string[];
}

/** What introspection and revocation need to know of a token. */
export interface TokenRecord {
  kind: 'access_token' | 'refresh_token';
  id: string;
  organizationId: string;
  appId: string | null;
  apiKeyId: string | null;
  userId: string | null;
  grantId: string | null;
  scopes: string[];
  expiresAt: Date;
  createdAt: Date;
  active: boolean;
}

export class OAuthGrantService {
  constructor(private readonly db: ServiceDependencies) {}

  /** Stores a new code; answers its value (shown once, in the redirect). */
  async createCode(code: NewCode): Promise<string> {
    const secret = generateOAuthSecret('code');
    await this.db.prisma.oAuthCode.create({
      data: {
        id: newId('oauthCode'),
        codeHash: secret.hash,
        appId: code.appId,
        userId: code.userId,
        organizationId: code.organizationId,
        redirectUri: code.redirectUri,
        scopes: code.scopes,
        codeChallenge: code.codeChallenge ?? null,
        codeChallengeMethod: code.codeChallengeMethod ?? null,
        expiresAt: new Date(Date.now() + CODE_LIFETIME_SECONDS * 1000),
      },
    });
    return secret.value;
  }

  /**
   * The unused code with this value. A code that was used already is refused,
   * and what it issued is revoked (RFC 6749 4.1.2).
   */
  async findCode(value: string): Promise<StoredCode | undefined> {
    if (!looksLike('code', value)) return undefined;
    const row = await this.db.prisma.oAuthCode.findUnique({
      where: { codeHash: sha256Hex(value) },
      include: { user: { select: { role: true, scopes: true } }, app: { select: { scopes: true } } },
    });
    if (!row) return undefined;
    if (row.usedAt) {
      await this.revokeGrant(row.id);
      return undefined;
    }
    return storedCode(row);
  }

  /** Marks the code used; false (and its grant revoked) when another exchange got there first. */
  async consumeCode(id: string): Promise<boolean> {
    const { count } = await this.db.prisma.oAuthCode.updateMany({
      where: { id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (count === 0) await this.revokeGrant(id);
    return count === 1;
  }

  /** Stores an access token (and a refresh token with it) as hashes, in one transaction. */
  async saveTokens(tokens: NewTokens): Promise<void> {
    await this.db.prisma.$transaction(async (tx) => {
      await tx.oAuthAccessToken.create({
        data: {
          id: newId('accessToken'),
          tokenHash: sha256Hex(tokens.accessToken),
          organizationId: tokens.organizationId,
          appId: tokens.appId ?? null,
          userId: tokens.userId ?? null,
          apiKeyId: tokens.apiKeyId ?? null,
          grantId: tokens.grantId ?? null,
          scopes: tokens.scopes,
          expiresAt: tokens.accessTokenExpiresAt,
        },
      });
      if (tokens.refreshToken && tokens.refreshTokenExpiresAt && tokens.appId && tokens.userId && tokens.grantId) {
        await tx.oAuthRefreshToken.create({
          data: {
            id: newId('refreshToken'),
            tokenHash: sha256Hex(tokens.refreshToken),
            organizationId: tokens.organizationId,
            appId: tokens.appId,
            userId: tokens.userId,
            grantId: tokens.grantId,
            scopes: tokens.scopes,
            expiresAt: tokens.refreshTokenExpiresAt,
          },
        });
      }
    });
  }

  /**
   * The live refresh token with this value. One that was rotated already is
   * refused and its whole grant revoked: the legitimate client and an attacker
   * both hold it, and we cannot tell which one is asking.
   */
  async findRefreshToken(value: string): Promise<StoredRefreshToken | undefined> {
    if (!looksLike('refreshToken', value)) return undefined;
    const row = await this.db.prisma.oAuthRefreshToken.findUnique({
      where: { tokenHash: sha256Hex(value) },
      include: { user: { select: { role: true, scopes: true } }, app: { select: { scopes: true } } },
    });
    if (!row || row.revokedAt) return undefined;
    if (row.rotatedAt) {
      await this.revokeGrant(row.grantId);
      return undefined;
    }
    const { id, organizationId, appId, userId, grantId, scopes, expiresAt, user, app } = row;
    return { id, organizationId, appId, userId, grantId, scopes, expiresAt, user, appScopes: app.scopes };
  }

  /** Marks the refresh token rotated; false (and its grant revoked) when another request rotated it first. */
  async rotateRefreshToken(id: string, grantId: string): Promise<boolean> {
    const { count } = await this.db.prisma.oAuthRefreshToken.updateMany({
      where: { id, rotatedAt: null, revokedAt: null },
      data: { rotatedAt: new Date() },
    });
    if (count === 0) await this.revokeGrant(grantId);
    return count === 1;
  }

  /** Revokes every access and refresh token of the grant, and its code; caches drop them at once. */
  async revokeGrant(grantId: string): Promise<void> {
    await changeCredentials(this.db, grantId, async (tx) => {
      const now = new Date();
      await tx.oAuthAccessToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
      await tx.oAuthRefreshToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
      await tx.oAuthCode.updateMany({ where: { id: grantId, usedAt: null }, data: { usedAt: now } });
    });
  }

  /** An access or refresh token by value, live or not; undefined when unknown. */
  async findToken(value: string): Promise<TokenRecord | undefined> {
    const now = Date.now();
    if (looksLike('accessToken', value)) {
      const row = await this.db.prisma.oAuthAccessToken.findUnique({
        where: { tokenHash: sha256Hex(value) },
        include: { apiKey: { select: { revokedAt: true, expiresAt: true } } },
      });
      if (!row) return undefined;
      const keyAlive = !row.apiKey || (!row.apiKey.revokedAt && (row.apiKey.expiresAt?.getTime() ?? Infinity) > now);
      return {
        kind: 'access_token',
        ...pick(row),
        apiKeyId: row.apiKeyId,
        active: !row.revokedAt && row.expiresAt.getTime() > now && keyAlive,
      };
    }
    if (looksLike('refreshToken', value)) {
      const row = await this.db.prisma.oAuthRefreshToken.findUnique({ where: { tokenHash: sha256Hex(value) } });
      if (!row) return undefined;
      return {
        kind: 'refresh_token',
        ...pick(row),
        apiKeyId: null,
        active: !row.revokedAt && !row.rotatedAt && row.expiresAt.getTime() > now,
      };
    }
    return undefined;
  }

  /** RFC 7009: a refresh token ends its grant; an access token ends alone. */
  async revokeToken(token: TokenRecord): Promise<void> {
    if (token.kind === 'refresh_token' && token.grantId) return this.revokeGrant(token.grantId);
    await changeCredentials(this.db, token.id, (tx) =>
      tx.oAuthAccessToken.updateMany({ where: { id: token.id, revokedAt: null }, data: { revokedAt: new Date() } }),
    );
  }
}

/**
 * Revokes, in the transaction of a change of the user (its rules' statement; the
 * change ends the credentials of the user's id, which cached tokens depend on),
 * everything apps hold for the user: its access and refresh tokens and its codes not yet exchanged.
 */
export async function revokeUserGrants(rules: Pick<RuleContext, 'query'>, userId: string): Promise<void> {
  for (const table of ['OAuthAccessToken', 'OAuthRefreshToken']) {
    await rules.query(`update "${table}" set "revokedAt" = now() where "userId" = $1 and "revokedAt" is null`, [
      userId,
    ]);
  }
  await rules.query(`update "OAuthCode" set "usedAt" = now() where "userId" = $1 and "usedAt" is null`, [userId]);
}

function storedCode(row: CodeRow & { user: UserRights; app: { scopes: string[] } }): StoredCode {
  return {
    id: row.id,
    appId: row.appId,
    userId: row.userId,
    organizationId: row.organizationId,
    redirectUri: row.redirectUri,
    scopes: row.scopes as Scope[],
    codeChallenge: row.codeChallenge ?? undefined,
    codeChallengeMethod: row.codeChallengeMethod ?? undefined,
    expiresAt: row.expiresAt,
    user: row.user,
    appScopes: row.app.scopes,
  };
}

function pick(row: {
  id: string;
  organizationId: string;
  appId: string | null;
  userId: string | null;
  grantId: string | null;
  scopes: string[];
  expiresAt: Date;
  createdAt: Date;
}) {
  const { id, organizationId, appId, userId, grantId, scopes, expiresAt, createdAt } = row;
  return { id, organizationId, appId, userId, grantId, scopes, expiresAt, createdAt };
}
