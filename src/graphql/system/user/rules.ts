// What is particular to a user, as the kit's rules. An admin holds every scope, a
// member the scopes listed; nobody gets rights the caller lacks, nor changes or
// deletes a user holding more; an organization always keeps one admin; a user may be
// one employee of the organization. The password is hashed before the transaction
// and never leaves here. Every change and delete ends the credentials that depend
// on the user (its keys are used within its current rights, so every process
// re-reads them); a new password or other rights also sign the user out and end
// what apps hold for it, and a delete revokes the keys it made.
import { requireEmployeeReference } from '../../hr/employee/employee-reference.js';
import { hashPassword } from '../../../auth/passwords.js';
import { hasScope, type Scope } from '../../../auth/scopes.js';
import { userScopes, type UserRights, type UserRole } from '../../../auth/user-scopes.js';
import { DomainError } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { Rules } from '../../kit/resource.js';
import { revokeKeysCreatedBy } from '../api-key/service.js';
import { revokeUserGrants } from '../oauth-grant/service.js';
import { endUserSessions } from '../session/service.js';
import type { User } from './type.js';

/** Namespace of the per-organization advisory lock that serialises changes that may remove an admin. */
const ADMIN_CHANGE_LOCK = 4242002;

export const userRules: Rules<User> = {
  /** The password's slow hash, before the transaction: the clear password goes no further. */
  async prepare({ password, ...values }, config) {
    if (password === undefined) return values;
    return { ...values, passwordHash: await hashPassword(password as string, config?.passwordScryptN) };
  },

  async create(values, rules) {
    const scopes = scopesFor(values.role as UserRole, values.scopes as Scope[] | null);
    requireGrantable(rules, scopes);
    await requireEmployeeReference(rules, 'employeeId', values.employeeId);
    return { scopes };
  },

  /**
   * Changing a user (even to what it is) takes over its rights: the caller must hold
   * them. A new role sets the scopes with it: an admin's become `['admin']`, and a
   * demoted admin needs its member scopes in the same request; null scopes are none.
   */
  settle(values, before, rules) {
    requireHolderOf(rules, before, 'change');
    const role = (values.role ?? before.role) as UserRole;
    const scopes = nextScopes(before, role, values.scopes as Scope[] | null | undefined);
    requireGrantable(rules, scopes);
    return { ...values, role, scopes };
  },

  async update({ before, changes }, rules) {
    if (before.role === 'admin' && changes.role) await requireAnotherAdmin(rules, 'demote');
    await requireEmployeeReference(rules, 'employeeId', changes.employeeId);
    if ('passwordHash' in changes || !sameRights(before, { ...before, ...changes } as UserRights)) {
      await endUserSessions(rules, before.id);
      await revokeUserGrants(rules, before.id);
    }
    await rules.endCredentials!(before.id);
  },

  /** Its sessions and grants go with it (ON DELETE CASCADE); the keys it made are revoked and stay listed. */
  async delete(user, rules) {
    requireHolderOf(rules, user, 'delete');
    if (user.role === 'admin') await requireAnotherAdmin(rules, 'delete');
    await revokeKeysCreatedBy(rules, user.id);
    await rules.endCredentials!(user.id);
  },
};

/** Whether two states of a user hold the same scopes (a reordered list is no change). */
function sameRights(before: UserRights, after: UserRights): boolean {
  const [held, holds] = [userScopes(before), userScopes(after)];
  return held.size === holds.size && [...held].every((scope) => holds.has(scope));
}

/** A new user's scopes: `['admin']` for an admin, the member's own list otherwise. */
function scopesFor(role: UserRole, sent: Scope[] | null | undefined): Scope[] {
  if (role === 'admin') {
    if (sent && !(sent.length === 1 && sent[0] === 'admin')) {
      throw new DomainError(
        'VALIDATION_ERROR',
        '\'scopes\': an admin holds every scope; omit scopes or send ["admin"]',
        'scopes',
      );
    }
    return ['admin'];
  }
  if (sent === undefined || sent === null) {
    throw new DomainError(
      'VALIDATION_ERROR',
      "'scopes' is required for a member (an empty list grants nothing)",
      'scopes',
    );
  }
  if (sent.includes('admin')) {
    throw new DomainError(
      'VALIDATION_ERROR',
      "'scopes': a member cannot hold 'admin'; make the user an admin",
      'scopes',
    );
  }
  return sent;
}

/** The scopes after an update: sent ones (null: none), else kept, except across a role change. */
function nextScopes(before: UserRights, role: UserRole, sent: Scope[] | null | undefined): Scope[] {
  if (role === 'admin') return scopesFor(role, sent);
  if (sent !== undefined) return scopesFor(role, sent ?? []);
  if (before.role === 'admin') {
    throw new DomainError(
      'VALIDATION_ERROR',
      "'scopes' is required when an admin becomes a member: name the member's scopes",
      'scopes',
    );
  }
  return [...userScopes(before)];
}

/** The same rule as for API keys: nobody hands out rights it does not hold (making an admin needs `admin`). */
function requireGrantable(rules: RuleContext, scopes: readonly Scope[]): void {
  const lacking = lackedBy(rules, scopes);
  if (!lacking.length) return;
  const field = lacking.includes('admin') ? 'role' : 'scopes';
  throw new DomainError('FORBIDDEN', `A user cannot be given scopes the caller lacks: ${lacking.join(', ')}`, field);
}

/** Changing a user (its password included) takes over its rights: the caller must hold them already. */
function requireHolderOf(rules: RuleContext, user: UserRights, action: 'change' | 'delete'): void {
  const lacking = lackedBy(rules, [...userScopes(user)]);
  if (!lacking.length) return;
  throw new DomainError('FORBIDDEN', `Cannot ${action} a user holding scopes the caller lacks: ${lacking.join(', ')}`);
}

function lackedBy(rules: RuleContext, scopes: readonly Scope[]): Scope[] {
  return scopes.filter((scope) => !hasScope(rules.scopes!, scope));
}

/**
 * CONFLICT unless the organization has an admin besides the one being removed or
 * demoted. Under a per-organization advisory lock, so two removals at once cannot
 * both see "another admin left".
 */
async function requireAnotherAdmin(rules: RuleContext, action: 'demote' | 'delete'): Promise<void> {
  const { organizationId } = rules;
  await rules.query(`select pg_advisory_xact_lock($1::int, hashtext($2::text))`, [ADMIN_CHANGE_LOCK, organizationId]);
  const [{ admins }] = (await rules.query<{ admins: number }>(
    `select count(*)::int as admins from "User" where "organizationId" = $1 and role = 'admin'`,
    [organizationId],
  )) as [{ admins: number }];
  if (admins > 1) return;
  throw new DomainError(
    'CONFLICT',
    `Cannot ${action} the organization's last admin: make another user an admin first`,
    action === 'demote' ? 'role' : undefined,
  );
}
