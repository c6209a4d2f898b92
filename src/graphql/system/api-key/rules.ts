// What is particular to an API key, as the kit's rules: a key never has a scope
// its creator lacks, its creator is the user the caller acts for (read and
// share-locked in the key's transaction, so a concurrent deletion revokes the new
// key and a demotion is seen), a key with no creator is made only by the operator,
// and its key and secret are shown once and stored as hashes.
import { generateKey, generateSecret } from '../../../auth/api-key-format.js';
import { hasScope, type Scope } from '../../../auth/scopes.js';
import { userScopes, type KeyMaker, type UserRights } from '../../../auth/user-scopes.js';
import { DomainError } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { Rules } from '../../kit/resource.js';
import type { SecretDeclaration } from '../../kit/secrets.js';
import { NOW } from '../../kit/store.js';
import { NewApiKey, type ApiKey } from './type.js';

const OPERATOR: KeyMaker = { createdByUserId: null, operatorIssued: true };

const lacking = (scopes: readonly string[]) =>
  new DomainError('FORBIDDEN', `A key cannot have scopes its creator lacks: ${scopes.join(', ')}`, 'scopes');

/** A key with no creator comes only from the operator (issue 23): anyone else is refused. */
export function requireOperator(rules: Pick<RuleContext, 'operator'>, maker: KeyMaker): KeyMaker {
  if (rules.operator) return maker;
  throw new DomainError('FORBIDDEN', 'Only the operator makes API keys that act for no user');
}

/**
 * Who makes a key for this caller: the user it acts for, read and share-locked in
 * the key's transaction, the key's scopes within what that user holds now; else the
 * operator. A user who is gone is a 401, a scope it no longer holds a 403.
 */
export async function makerOf(rules: RuleContext, scopes: readonly string[]): Promise<KeyMaker> {
  if (!rules.userId) return requireOperator(rules, OPERATOR);
  const [user] = await rules.query<UserRights>(
    `select role, scopes from "User" where id = $1 and "organizationId" = $2 for share`,
    [rules.userId, rules.organizationId],
  );
  if (!user) throw new DomainError('UNAUTHORIZED', 'The user this credential acts for no longer exists');
  const held = userScopes(user);
  const beyond = scopes.filter((scope) => !hasScope(held, scope as Scope));
  if (beyond.length) throw lacking(beyond);
  return { createdByUserId: rules.userId, operatorIssued: false };
}

export const apiKeyRules: Rules<ApiKey> = {
  /** Within the caller's scopes, and made by the user it acts for (or the operator). */
  async create(values, rules) {
    const scopes = values.scopes as Scope[];
    const wider = scopes.filter((scope) => !hasScope(rules.scopes!, scope));
    if (wider.length) throw lacking(wider);
    return { ...(await makerOf(rules, scopes)) };
  },
};

/** The Bearer key (`bpk_…`) and the client_credentials secret (`bps_…`), shown once, kept as hashes. */
export const keyAndSecret: SecretDeclaration = {
  type: NewApiKey,
  issue() {
    const { key, prefix, keyHash } = generateKey();
    const secret = generateSecret();
    return {
      columns: { prefix, keyHash, secretHash: secret.hash },
      shown: { key, secret: secret.value, replaces: null },
    };
  },
};

/** Revocation: every process drops the key (and the tokens issued to it) on commit. */
export async function revoked(_input: unknown, key: ApiKey, rules: RuleContext) {
  await rules.endCredentials!(key.id);
  return { revokedAt: NOW };
}
