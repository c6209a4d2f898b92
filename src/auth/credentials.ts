// Bearer credential -> Principal. API keys and OAuth access tokens are looked
// up by their SHA-256 and kept in a per-process cache so a request costs no
// database round trip; every process LISTENs for revocations and drops the
// credential at once, and cached entries are re-read after a short TTL in any
// case. A NOTIFY's payload is the id of anything a credential depends on: the
// key or token itself, a token's grant, app or user, the API key a
// client_credentials token was issued to, or the user who created a key.
//
// A key made by a user holds no more than that user holds now: its scopes are
// bounded by its creator's current rights when it is resolved, and a change of
// those rights NOTIFYs the user's id, so every process re-reads the key at once.
// A key, and a client_credentials token of it, acts for that user (userId); a
// key the operator made acts as the operator; one whose creator is gone, neither
// (it is refused as revoked).
import type pg from 'pg';
import { newClient } from '../db/multi-host.js';
import type { PrismaClient } from '../db/prisma.js';
import { DomainError } from '../errors.js';
import { API_KEY_PREFIX, CREDENTIAL_CHANGED_CHANNEL } from './api-key-format.js';
import { OAUTH_PREFIX } from './oauth-token-format.js';
import { SYSTEM_ACTOR, type Actor, type Principal } from './principal.js';
import { sha256Hex } from './secrets.js';
import { isOrphanedKey, keyScopes } from './user-scopes.js';

const CACHE_TTL_MS = 60_000;
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_CACHED_KEYS = 10_000;

interface CachedKey {
  principal: Principal;
  /** Ids whose change (NOTIFY) drops this entry; the credential's own id included. */
  dependsOn: readonly string[];
  expiresAt: number | null;
  revoked: boolean;
  loadedAt: number;
  lastUsedWrittenAt: number;
}

export const unauthorized = (message = 'A valid Bearer API key or access token is required') =>
  new DomainError('UNAUTHORIZED', message);

/** What a key (or a token issued to it) is read with: its creator's rights, which bound its scopes. */
const CREATOR_RIGHTS = { createdBy: { select: { role: true, scopes: true } } } as const;

/** A key the operator made: it acts as the operator (for no user). */
const actsAsOperator = (key: { createdByUserId: string | null; operatorIssued: boolean }) =>
  key.operatorIssued && key.createdByUserId === null;

/** The entry, if it is a credential that may be used now; else why not (401). */
function requireLive(entry: CachedKey | undefined, what: string, now: number): CachedKey {
  if (!entry) throw unauthorized(`Invalid ${what}`);
  if (entry.revoked) throw unauthorized(`This ${what} has been revoked`);
  if (entry.expiresAt !== null && entry.expiresAt <= now) throw unauthorized(`This ${what} has expired`);
  return entry;
}

export interface Logger {
  warn(object: object, message?: string): void;
}

export class CredentialResolver {
  private readonly cache = new Map<string, CachedKey>();
  /**
   * The hash of each credential that resolved, by the credential: a request with a
   * known credential costs a lookup, not a SHA-256 (the entry itself stays keyed
   * by hash, so dropping and re-reading it works as before).
   */
  private readonly hashes = new Map<string, string>();
  private listener?: pg.Client;
  private closed = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
  ) {}

  /** Subscribes to key changes; without it, revocation takes up to the cache TTL. */
  async listen(connectionString: string): Promise<void> {
    // A failover group's URL finds the primary again at each reconnection (src/db/multi-host.ts).
    const client = newClient(connectionString);
    client.on('notification', (message) => this.forget(message.payload ?? ''));
    // A lost connection may report more than one error (the server's notice, then the end): one reconnection.
    let lost = false;
    client.on('error', (error) => {
      if (lost) return;
      lost = true;
      if (!this.closed) this.logger.warn({ error: error.message }, 'api key change listener lost; reconnecting');
      this.cache.clear();
      this.listener = undefined;
      const retry = () => {
        if (this.closed) return;
        this.listen(connectionString).catch(() => setTimeout(retry, 1000).unref());
      };
      setTimeout(retry, 1000).unref();
    });
    await client.connect();
    await client.query(`listen ${CREDENTIAL_CHANGED_CHANNEL}`);
    this.listener = client;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => {});
  }

  /** Drops every cached credential that depends on `id` (itself, its grant, app, user or key). */
  forget(id: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.dependsOn.includes(id)) this.cache.delete(hash);
    }
  }

  /** Resolves an Authorization header value; throws UNAUTHORIZED. */
  async resolve(authorization: string | undefined): Promise<Principal> {
    if (!authorization) throw unauthorized();
    const match = /^Bearer +([0-9A-Za-z\-._~+/]+=*) *$/i.exec(authorization);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <API key or access token>"');
    const token = match[1]!;
    if (token.startsWith(API_KEY_PREFIX)) return this.resolveApiKey(token);
    if (token.startsWith(OAUTH_PREFIX.accessToken)) return this.resolveAccessToken(token);
    throw unauthorized('Invalid API key or access token');
  }

  private async cached(
    token: string,
    load: (hash: string, now: number) => Promise<CachedKey | undefined>,
  ): Promise<CachedKey | undefined> {
    const hash = this.hashes.get(token) ?? sha256Hex(token);
    const now = Date.now();
    const entry = this.cache.get(hash);
    if (entry && now - entry.loadedAt <= CACHE_TTL_MS) return entry;
    const loaded = await load(hash, now);
    if (!loaded) {
      this.cache.delete(hash);
      this.hashes.delete(token);
      return undefined;
    }
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.clear();
    if (this.hashes.size >= MAX_CACHED_KEYS) this.hashes.clear();
    this.cache.set(hash, loaded);
    this.hashes.set(token, hash);
    return loaded;
  }

  private async resolveAccessToken(token: string): Promise<Principal> {
    const entry = await this.cached(token, (hash, now) => this.loadAccessToken(hash, now));
    return requireLive(entry, 'access token', Date.now()).principal;
  }

  private async resolveApiKey(key: string): Promise<Principal> {
    const now = Date.now();
    const entry = requireLive(await this.cached(key, (hash, now) => this.load(hash, now)), 'API key', now);
    if (now - entry.lastUsedWrittenAt > LAST_USED_RESOLUTION_MS) {
      entry.lastUsedWrittenAt = now;
      this.touch(entry.principal.credential.id, new Date(now));
    }
    return entry.principal;
  }

  private async load(hash: string, now: number): Promise<CachedKey | undefined> {
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash: hash }, include: CREATOR_RIGHTS });
    if (!row) return undefined;
    return {
      dependsOn: [row.id, ...(row.createdByUserId ? [row.createdByUserId] : [])],
      principal: {
        organizationId: row.organizationId,
        scopes: keyScopes(row),
        credential: { type: 'api_key', id: row.id },
        userId: row.createdByUserId ?? undefined,
        ...(actsAsOperator(row) && { operator: true }),
        actor: { type: 'api_key', id: row.id },
      },
      expiresAt: row.expiresAt?.getTime() ?? null,
      revoked: row.revokedAt !== null || isOrphanedKey(row),
      loadedAt: now,
      lastUsedWrittenAt: row.lastUsedAt?.getTime() ?? 0,
    };
  }

  /**
   * An access token's principal: its own scopes and organization. A token from
   * client_credentials lives no longer than its API key (the key's revocation
   * or expiry ends it too), acts for the key's creator and holds no more than
   * that user holds now.
   */
  private async loadAccessToken(hash: string, now: number): Promise<CachedKey | undefined> {
    const row = await this.prisma.oAuthAccessToken.findUnique({
      where: { tokenHash: hash },
      include: {
        apiKey: {
          select: { revokedAt: true, expiresAt: true, createdByUserId: true, operatorIssued: true, ...CREATOR_RIGHTS },
        },
      },
    });
    if (!row) return undefined;
    const key = row.apiKey;
    const keyExpiry = key?.expiresAt?.getTime() ?? Infinity;
    const dependsOn = [row.id, row.grantId, row.appId, row.userId, row.apiKeyId, key?.createdByUserId];
    return {
      dependsOn: dependsOn.filter((id): id is string => !!id),
      principal: {
        organizationId: row.organizationId,
        scopes: key ? keyScopes({ ...key, scopes: row.scopes }) : new Set(row.scopes),
        credential: { type: 'access_token', id: row.id },
        // A client_credentials token acts for its key's creator, as the key does.
        userId: row.userId ?? key?.createdByUserId ?? undefined,
        ...(key && actsAsOperator(key) && { operator: true }),
        rateLimitKey: row.apiKeyId ?? `${row.appId}:${row.userId}`,
        // client_credentials: the API key is the OAuth client and acts; a code-flow token acts for its user.
        actor: tokenActor(row),
      },
      expiresAt: Math.min(row.expiresAt.getTime(), keyExpiry),
      revoked: row.revokedAt !== null || Boolean(key?.revokedAt) || Boolean(key && isOrphanedKey(key)),
      loadedAt: now,
      // Access tokens record no last use.
      lastUsedWrittenAt: Infinity,
    };
  }

  /** Records last use at minute resolution, off the request's critical path. */
  private touch(id: string, at: Date): void {
    this.prisma.apiKey
      .update({ where: { id }, data: { lastUsedAt: at } })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not record API key use'));
  }
}

/** Who a token's changes are recorded as: its API key (client_credentials), its user (code flow), else its app. */
function tokenActor(row: { apiKeyId: string | null; userId: string | null; appId: string | null }): Actor {
  if (row.apiKeyId) return { type: 'api_key', id: row.apiKeyId };
  if (row.userId) return { type: 'user', id: row.userId };
  return row.appId ? { type: 'oauth_app', id: row.appId } : SYSTEM_ACTOR;
}
