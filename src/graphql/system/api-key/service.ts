// API keys: the kit's service (list, get, create, revoke: index.ts), the
// rotation, and what the OAuth token endpoint and the operator tools ask of a
// key. Revocation reaches every server process at once (NOTIFY, see
// auth/credentials.ts); the keys of a deleted user are revoked (user/rules.ts).
import { API_KEY_PREFIX } from '../../../auth/api-key-format.js';
import type { Principal } from '../../../auth/principal.js';
import { actorOf } from '../../../auth/principal.js';
import { sha256Hex, verifyIssuedSecret } from '../../../auth/secrets.js';
import type { Scope } from '../../../auth/scopes.js';
import { isOrphanedKey, keyScopes } from '../../../auth/user-scopes.js';
import { DomainError, notFound } from '../../../errors.js';
import { API_KEY_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX, newId } from '../../../ids.js';
import { parseInput } from '../../../validation.js';
import { requireWellFormedId } from '../../kit/records.js';
import { ResourceService } from '../../kit/resource-service.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { droppedAfterCommit, ruleContextOf, type EndedCredentials } from '../../kit/rule-context.js';
import { insertRecord, NOW, updateRecord } from '../../kit/store.js';
import { inTransaction } from '../../kit/transactions.js';
import { rotateApiKeySchema } from './input.js';
import { keyAndSecret, makerOf, requireOperator } from './rules.js';
import type { ApiKey, NewApiKey } from './type.js';

/** An API key acting as an OAuth client (client_credentials). */
export interface ClientKey {
  id: string;
  organizationId: string;
  /** What the key may use now: its scopes within its creator's current rights. */
  scopes: Scope[];
  expiresAt: Date | null;
}

/** What a rotation reads of the key it replaces. */
interface RotatedKey {
  name: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdByUserId: string | null;
  operatorIssued: boolean;
}

export class ApiKeyService extends ResourceService<ApiKey> {
  /** Issues a key within the caller's scopes; its key and secret are in this answer only. */
  override create(principal: Principal, input: unknown, parsed = false): Promise<ApiKey & NewApiKey> {
    return super.create(principal, input, parsed) as Promise<ApiKey & NewApiKey>;
  }

  /** Revokes a key (at once, in every process) and raises api_key.revoked; revoking a revoked key changes nothing. */
  revoke(principal: Principal, id: string): Promise<ApiKey> {
    return this.act(principal, 'revoke', id, {});
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
    const { organizationId } = principal;
    const actor = actorOf(principal);
    const ended: EndedCredentials = [];
    const rotated = await inTransaction(this.db.pool, async (client) => {
      const rules = ruleContextOf(client, principal, { deps: this.db, ended });
      const [old] = await rules.query<RotatedKey>(
        `select name, scopes, "expiresAt", "revokedAt", "createdByUserId", "operatorIssued"
         from "ApiKey" where id = $1 and "organizationId" = $2 for update`,
        [id, organizationId],
      );
      if (!old) throw notFound('API key');
      if (old.revokedAt) throw new DomainError('CONFLICT', `API key ${id} is revoked and cannot be rotated`);
      const maker = principal.userId ? await makerOf(rules, old.scopes) : requireOperator(rules, old);
      const issued = await keyAndSecret.issue({}, rules);
      const values = {
        id: newId('apiKey'),
        name: old.name,
        scopes: old.scopes,
        expiresAt: expiresAt === undefined ? old.expiresAt : expiresAt,
        createdByUserId: maker.createdByUserId,
        operatorIssued: maker.operatorIssued,
        ...issued.columns,
      };
      const events = (event: { type: string }) => [{ type: event.type }];
      const created = (await insertRecord(client, this.resource, {
        organizationId,
        values,
        events: events(API_KEY_EVENTS.created),
        actor,
      }))!;
      const changes = { revokedAt: NOW, replacedById: created.id };
      await updateRecord(client, this.resource, {
        organizationId,
        id,
        changes,
        events: events(API_KEY_EVENTS.revoked),
        actor,
      });
      await rules.endCredentials!(id);
      return { ...created, ...issued.shown, replaces: id } as NewApiKey;
    });
    droppedAfterCommit(this.db, ended);
    return rotated;
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

  /** For operator tools that name a key but not its organization. */
  async organizationOf(id: string): Promise<string | undefined> {
    const row = await this.db.prisma.apiKey.findUnique({ where: { id }, select: { organizationId: true } });
    return row?.organizationId;
  }
}

/**
 * Revokes, in the transaction of the user's delete (its rules' statement; the delete
 * ends the credentials of the user's id, which cached keys depend on), every live key the user created.
 */
export function revokeKeysCreatedBy(rules: Pick<RuleContext, 'query'>, userId: string): Promise<unknown> {
  return rules.query(`update "ApiKey" set "revokedAt" = now() where "createdByUserId" = $1 and "revokedAt" is null`, [
    userId,
  ]);
}
