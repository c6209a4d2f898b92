// API keys: issued with a key and a secret shown once and stored as hashes,
// listed, rotated and revoked, always within the caller's organization. A key
// never carries a scope its creator lacks, when made or later: it is used
// within its creator's current rights (auth/credentials.ts), and the keys of a
// deleted user are revoked (user/service.ts). Its creator is the user the
// caller acts for (a client_credentials token acts for its key's creator); a
// key with no creator is made only by the operator (the CLI, or a key the
// operator made). Revocation reaches every server process at once (NOTIFY, see
// auth/credentials.ts).
import { API_KEY_PREFIX, generateKey, generateSecret, type GeneratedKey } from '../../../auth/api-key-format.js';
import { actorOf, type Actor, type Principal } from '../../../auth/principal.js';
import { sha256Hex, verifyIssuedSecret } from '../../../auth/secrets.js';
import { hasScope, type Scope } from '../../../auth/scopes.js';
import { isOrphanedKey, keyScopes, userScopes, type KeyMaker, type UserRights } from '../../../auth/user-scopes.js';
import type { Transaction } from '../../../db/prisma.js';
import { DomainError } from '../../../errors.js';
import type { ApiKey as ApiKeyRow } from '../../../generated/prisma/client.js';
import { ID_PREFIX, newId } from '../../../ids.js';
import { emitEvent, emitEventBy } from '../../../events/emit.js';
import { parseInput } from '../../../validation.js';
import { changeCredentials } from '../../kit/credential-changes.js';
import { toPublic } from '../../kit/fields.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { findOwned, lockOwned, requireWellFormedId } from '../../kit/records.js';
import { apiKeyInput, apiKeyList, rotateApiKeySchema } from './input.js';
import { ApiKey, type NewApiKey } from './type.js';

/** An API key acting as an OAuth client (client_credentials). */
export interface ClientKey {
  id: string;
  organizationId: string;
  /** What the key may use now: its scopes within its creator's current rights. */
  scopes: Scope[];
  expiresAt: Date | null;
}

interface NewKeyData extends KeyMaker {
  name: string;
  scopes: Scope[];
  expiresAt: Date | null;
}

const OPERATOR: KeyMaker = { createdByUserId: null, operatorIssued: true };

export class ApiKeyService {
  constructor(private readonly db: ServiceDependencies) {}

  list(principal: Principal, args: unknown): Promise<Page<ApiKey>> {
    return listPage(this.db.pool, { table: 'ApiKey', type: ApiKey, list: apiKeyList }, principal, args);
  }

  async get(principal: Principal, id: string): Promise<ApiKey> {
    return toPublic(ApiKey, await this.find(principal, id));
  }

  /** Issues a key within the caller's scopes; emits api_key.created with it. */
  async create(principal: Principal, input: unknown): Promise<NewApiKey> {
    const data = parseInput(apiKeyInput.create, input);
    const wider = data.scopes.filter((scope) => !hasScope(principal.scopes, scope));
    if (wider.length) {
      throw new DomainError('FORBIDDEN', `A key cannot have scopes its creator lacks: ${wider.join(', ')}`, 'scopes');
    }
    const secret = generateSecret();
    return this.db.prisma.$transaction(async (tx) =>
      this.insert(tx, principal, secret, {
        name: data.name,
        scopes: data.scopes,
        expiresAt: data.expiresAt ? new Date(data.expiresAt) : null,
        ...(await makerOf(tx, principal, data.scopes)),
      }),
    );
  }

  /**
   * Replaces a key: a new key and secret with the same name and scopes (and the
   * old expiry unless `expiresAt` is given), the old key revoked at once, in one
   * transaction (api_key.created, then api_key.revoked). A revoked key cannot be
   * rotated (409). The new key is made by whoever rotates, as a created one is (it
   * is theirs: they hold its secret); the operator's rotation keeps the old key's maker.
   */
  async rotate(principal: Principal, id: string, input: unknown = {}): Promise<NewApiKey> {
    requireWellFormedId(ID_PREFIX.apiKey, 'API key', id);
    const { expiresAt } = parseInput(rotateApiKeySchema, input);
    const secret = generateSecret();
    return changeCredentials(this.db, id, async (tx) => {
      const old = await lockOwned<ApiKeyRow>(tx, 'ApiKey', 'API key', principal.organizationId, id);
      if (old.revokedAt) throw new DomainError('CONFLICT', `API key ${id} is revoked and cannot be rotated`);
      const scopes = old.scopes as Scope[];
      const maker = principal.userId
        ? await makerOf(tx, principal, scopes)
        : requireOperator(principal, { createdByUserId: old.createdByUserId, operatorIssued: old.operatorIssued });
      const created = await this.insert(tx, principal, secret, {
        name: old.name,
        scopes,
        expiresAt: expiresAt === undefined ? old.expiresAt : expiresAt === null ? null : new Date(expiresAt),
        ...maker,
      });
      await this.revoked(tx, actorOf(principal), await markRevoked(tx, id, created.id));
      return { ...created, replaces: id };
    });
  }

  /** Revokes a key (at once, in every process) and raises api_key.revoked; revoking a revoked key changes nothing. */
  async revoke(principal: Principal, id: string): Promise<ApiKey> {
    requireWellFormedId(ID_PREFIX.apiKey, 'API key', id);
    // Every process drops the key (and the tokens issued to it) on commit.
    return changeCredentials(this.db, id, async (tx) => {
      const row = await lockOwned<ApiKeyRow>(tx, 'ApiKey', 'API key', principal.organizationId, id);
      if (row.revokedAt) return toPublic(ApiKey, row);
      return this.revoked(tx, actorOf(principal), await markRevoked(tx, id));
    });
  }

  /**
   * The live key whose key and secret these are (the OAuth client_credentials
   * grant's client), or undefined. One fast hash whether the key exists or not
   * (auth/secrets.ts), so an unknown key costs nothing and takes no longer.
   */
  async verifyClientCredentials(key: string, secret: string): Promise<ClientKey | undefined> {
    const row = key.startsWith(API_KEY_PREFIX)
      ? await this.db.prisma.apiKey.findUnique({
          where: { keyHash: sha256Hex(key) },
          include: { createdBy: { select: { role: true, scopes: true } } },
        })
      : null;
    const check = await verifyIssuedSecret(secret, row?.secretHash);
    const expired = row?.expiresAt && row.expiresAt.getTime() <= Date.now();
    if (!row || !check.valid || row.revokedAt || expired || isOrphanedKey(row)) return undefined;
    if (check.upgrade) {
      // Hashed with scrypt, before issued secrets were hashed fast: store the fast hash now.
      await this.db.prisma.apiKey.updateMany({ where: { id: row.id }, data: { secretHash: check.upgrade } });
    }
    return {
      id: row.id,
      organizationId: row.organizationId,
      scopes: [...keyScopes(row)] as Scope[],
      expiresAt: row.expiresAt,
    };
  }

  /** Keys of the caller's organization in the order of `ids` (undefined for one not found): for ApiKey.replacedBy. */
  async byIds(principal: Principal, ids: readonly string[]): Promise<(ApiKey | undefined)[]> {
    const rows = await this.db.prisma.apiKey.findMany({
      where: { id: { in: [...ids] }, organizationId: principal.organizationId },
    });
    const found = new Map(rows.map((row) => [row.id, toPublic(ApiKey, row)]));
    return ids.map((id) => found.get(id));
  }

  /** For operator tools that name a key but not its organization. */
  async organizationOf(id: string): Promise<string | undefined> {
    const row = await this.db.prisma.apiKey.findUnique({ where: { id }, select: { organizationId: true } });
    return row?.organizationId;
  }

  private find(principal: Principal, id: string): Promise<ApiKeyRow> {
    return findOwned(ID_PREFIX.apiKey, 'API key', id, (id) =>
      this.db.prisma.apiKey.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
  }

  /** Raises api_key.revoked for a key just revoked; answers its public object. */
  private async revoked(tx: Transaction, actor: Actor, row: ApiKeyRow): Promise<ApiKey> {
    const object = toPublic(ApiKey, row);
    await emitEvent(tx, { organizationId: row.organizationId, type: 'api_key.revoked', object, actor });
    return object;
  }

  private async insert(
    tx: Transaction,
    principal: Principal,
    secret: { value: string; hash: string },
    data: NewKeyData,
  ): Promise<NewApiKey> {
    const { organizationId } = principal;
    const generated: GeneratedKey = generateKey();
    const row = await tx.apiKey.create({
      data: {
        id: newId('apiKey'),
        organizationId,
        createdByUserId: data.createdByUserId,
        operatorIssued: data.operatorIssued,
        name: data.name,
        prefix: generated.prefix,
        keyHash: generated.keyHash,
        secretHash: secret.hash,
        scopes: data.scopes,
        expiresAt: data.expiresAt,
      },
    });
    const object = toPublic(ApiKey, row);
    await emitEventBy(tx, principal, { type: 'api_key.created', object });
    return {
      id: object.id,
      name: object.name,
      prefix: object.prefix,
      scopes: object.scopes,
      expiresAt: object.expiresAt,
      createdAt: object.createdAt,
      key: generated.key,
      secret: secret.value,
      replaces: null,
    };
  }
}

/**
 * Who makes a key for this caller: the user it acts for, read and share-locked in
 * the key's transaction (so a concurrent deletion revokes the new key, and a
 * demotion is seen), the key's scopes within what that user holds now; else the
 * operator. A user who is gone is a 401, a scope it no longer holds a 403.
 */
async function makerOf(tx: Transaction, principal: Principal, scopes: readonly Scope[]): Promise<KeyMaker> {
  if (!principal.userId) return requireOperator(principal, OPERATOR);
  const [user] = await tx.$queryRaw<UserRights[]>`
    select role, scopes from "User"
    where id = ${principal.userId} and "organizationId" = ${principal.organizationId}
    for share`;
  if (!user) throw new DomainError('UNAUTHORIZED', 'The user this credential acts for no longer exists');
  const held = userScopes(user);
  const beyond = scopes.filter((scope) => !hasScope(held, scope));
  if (beyond.length) {
    throw new DomainError('FORBIDDEN', `A key cannot have scopes its creator lacks: ${beyond.join(', ')}`, 'scopes');
  }
  return { createdByUserId: principal.userId, operatorIssued: false };
}

/** A key with no creator comes only from the operator (issue 23): anyone else is refused. */
function requireOperator(principal: Principal, maker: KeyMaker): KeyMaker {
  if (principal.operator) return maker;
  throw new DomainError('FORBIDDEN', 'Only the operator makes API keys that act for no user');
}

/**
 * Revokes, in the caller's transaction (a changeCredentials one on the user's
 * id, which cached keys depend on), every live key the user created.
 */
export function revokeKeysCreatedBy(tx: Transaction, userId: string): Promise<unknown> {
  return tx.apiKey.updateMany({ where: { createdByUserId: userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Revokes in the caller's transaction (a changeCredentials one, so every process drops the key). */
/** Revokes the key now; a rotation names the key that replaces it. */
function markRevoked(tx: Transaction, id: string, replacedById?: string): Promise<ApiKeyRow> {
  return tx.apiKey.update({ where: { id }, data: { revokedAt: new Date(), ...(replacedById && { replacedById }) } });
}
