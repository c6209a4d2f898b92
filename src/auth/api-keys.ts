// API keys: generated here, shown once, stored as hashes (DECISIONS.md).
// `bpk_…` authenticates API calls; `bps_…` is the separate secret that, with
// the key, forms the client credentials of the OAuth client_credentials grant.
import type { ApiKey } from '../generated/prisma/client.js';
import type { PrismaClient, Transaction } from '../db/prisma.js';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { emitEvent } from '../jobs/events.js';
import { hashPassword, randomToken, sha256Hex } from './secrets.js';
import type { Scope } from './scopes.js';

export const API_KEY_PREFIX = 'bpk_';
export const API_KEY_SECRET_PREFIX = 'bps_';
/** How many characters of a key are kept in clear to recognise it in lists. */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** Subscribers (every server process) drop their cached copy of a changed key. */
export const API_KEY_CHANGED_CHANNEL = 'api_key_changed';

export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  secret: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
  createdAt: string;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export interface CreateApiKeyInput {
  organizationId: string;
  name: string;
  scopes: Scope[];
  expiresAt?: Date | null;
  createdByUserId?: string;
}

/** Generates a key, stores its hashes and emits `api_key.created`, in one transaction. */
export async function createApiKey(prisma: PrismaClient, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const secret = await newSecret();
  return prisma.$transaction((tx) => insertApiKey(tx, input, secret));
}

/** Hashing the secret is slow on purpose: do it before opening a transaction. */
export async function newSecret(): Promise<{ value: string; hash: string }> {
  const value = API_KEY_SECRET_PREFIX + randomToken(40);
  return { value, hash: await hashPassword(value) };
}

export async function insertApiKey(
  tx: Transaction,
  input: CreateApiKeyInput,
  secret: { value: string; hash: string },
): Promise<CreatedApiKey> {
  const key = API_KEY_PREFIX + randomToken(40);
  const row = await tx.apiKey.create({
    data: {
      id: newId('apiKey'),
      organizationId: input.organizationId,
      createdByUserId: input.createdByUserId ?? null,
      name: input.name,
      prefix: key.slice(0, VISIBLE_PREFIX_LENGTH),
      keyHash: sha256Hex(key),
      secretHash: secret.hash,
      scopes: input.scopes,
      expiresAt: input.expiresAt ?? null,
    },
  });
  const summary = summarizeApiKey(row);
  await emitEvent(tx, { organizationId: input.organizationId, type: 'api_key.created', object: summary });
  const { lastUsedAt: _lastUsedAt, revokedAt: _revokedAt, ...shown } = summary;
  return { ...shown, key, secret: secret.value };
}

export function summarizeApiKey(row: ApiKey): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listApiKeys(db: PrismaClient, organizationId: string): Promise<ApiKeySummary[]> {
  const rows = await db.apiKey.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(summarizeApiKey);
}

/**
 * Replaces a key: a new key and secret with the same organization, name and
 * scopes (and the old expiry unless `expiresAt` is given), and the old key
 * revoked at once, in one transaction. Null when no such key; a revoked key
 * cannot be rotated.
 */
export async function rotateApiKey(
  prisma: PrismaClient,
  id: string,
  expiresAt?: Date | null,
): Promise<(CreatedApiKey & { replaces: string }) | null> {
  const secret = await newSecret();
  return prisma.$transaction(async (tx) => {
    const [old] = await tx.$queryRaw<ApiKey[]>`select * from "ApiKey" where id = ${id} for update`;
    if (!old) return null;
    if (old.revokedAt) throw new DomainError('CONFLICT', `API key ${id} is revoked and cannot be rotated`);
    const created = await insertApiKey(
      tx,
      {
        organizationId: old.organizationId,
        name: old.name,
        scopes: old.scopes as Scope[],
        expiresAt: expiresAt === undefined ? old.expiresAt : expiresAt,
        createdByUserId: old.createdByUserId ?? undefined,
      },
      secret,
    );
    await markRevoked(tx, id);
    return { ...created, replaces: id };
  });
}

/** Revokes a key and tells every server process to forget it; null when no such key. */
export async function revokeApiKey(db: PrismaClient, id: string): Promise<ApiKeySummary | null> {
  return db.$transaction(async (tx) => {
    const existing = await tx.apiKey.findUnique({ where: { id } });
    if (!existing) return null;
    return summarizeApiKey(existing.revokedAt ? existing : await markRevoked(tx, id));
  });
}

/** Revokes in the caller's transaction; on commit, every server process drops the key from its cache. */
async function markRevoked(tx: Transaction, id: string): Promise<ApiKey> {
  const row = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  await tx.$executeRaw`select pg_notify(${API_KEY_CHANGED_CHANNEL}, ${id})`;
  return row;
}
