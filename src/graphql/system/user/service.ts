// Users: who signs in to the dashboard and the OAuth consent, and with which
// rights. An admin holds every scope; a member the scopes listed. Nobody gets
// rights the caller lacks, and an organization always keeps one admin.
// Passwords are hashed (slowly) before any transaction and never leave here.
// Every change and delete goes through changeCredentials on the user's id: the
// keys the user made are used within its current rights, so every process
// re-reads them; a new password or other rights also sign the user out and end
// what apps hold for it, and a delete revokes the user's keys.
import type { Principal } from '../../../auth/principal.js';
import { hasScope, type Scope } from '../../../auth/scopes.js';
import { hashPassword, verifyPassword } from '../../../auth/passwords.js';
import { userScopes, type UserRights, type UserRole } from '../../../auth/user-scopes.js';
import type { Prisma, Transaction } from '../../../db/prisma.js';
import { DomainError, invalidField } from '../../../errors.js';
import type { User as UserRow } from '../../../generated/prisma/client.js';
import { ID_PREFIX, isWellFormedIdWith, newId } from '../../../ids.js';
import { emitEventBy } from '../../../events/emit.js';
import { parseInput } from '../../../validation.js';
import { EMPLOYEE_ID_PREFIX } from '../../hr/employee/id-prefix.js';
import { changeCredentials } from '../../kit/credential-changes.js';
import { toPublic } from '../../kit/fields.js';
import { refuseChangedFixed, type FixedFields } from '../../kit/fixed-fields.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import {
  changedAttributes,
  changedColumns,
  findOwned,
  lockOwned,
  requireWellFormedId,
  uniqueConflict,
} from '../../kit/records.js';
import { revokeKeysCreatedBy } from '../api-key/service.js';
import { revokeUserGrants } from '../oauth-grant/service.js';
import { endUserSessions } from '../session/service.js';
import { changePasswordSchema, userInput, userList } from './input.js';
import { User } from './type.js';

// Sign-in is by email, so the address is unique across organizations; the
// message does not say where it is used.
const CONFLICTS = {
  email: 'A user with this email already exists',
  employeeId: 'Another user of the organization is this employee',
};

/** Namespace of the per-organization advisory lock that serialises changes that may remove an admin. */
const ADMIN_CHANGE_LOCK = 4242002;

export class UserService {
  constructor(private readonly db: ServiceDependencies) {}

  list(principal: Principal, args: unknown): Promise<Page<User>> {
    return listPage(this.db.pool, { table: 'User', type: User, list: userList }, principal, args);
  }

  async get(principal: Principal, id: string): Promise<User> {
    const row = await findOwned(ID_PREFIX.user, 'User', id, (id) =>
      this.db.prisma.user.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
    return toPublic(User, row);
  }

  async create(principal: Principal, input: unknown): Promise<User> {
    const data = parseInput(userInput.create, input);
    const scopes = scopesFor(data.role, data.scopes);
    requireGrantable(principal, scopes);
    const passwordHash = await hashPassword(data.password, this.db.config?.passwordScryptN);
    const { organizationId } = principal;
    try {
      return await this.db.prisma.$transaction(async (tx) => {
        await requireEmployee(tx, organizationId, data.employeeId);
        const row = await tx.user.create({
          data: {
            id: newId('user'),
            organizationId,
            email: data.email,
            name: data.name ?? null,
            role: data.role,
            scopes,
            employeeId: data.employeeId ?? null,
            passwordHash,
          },
        });
        const object = toPublic(User, row);
        await emitEventBy(tx, principal, { type: 'user.created', object });
        return object;
      });
    } catch (error) {
      throw uniqueConflict(error, CONFLICTS) ?? error;
    }
  }

  /**
   * Changes what is sent. A new role sets the scopes with it: an admin's become
   * `['admin']`, and a demoted admin needs its member scopes in the same request.
   * A new password or other rights end the user's sessions and OAuth grants in
   * the same transaction.
   */
  /** `fixed`: the read-only fields of a REST body, which must hold the user's own values (kit/fixed-fields.ts). */
  async update(principal: Principal, id: string, input: unknown, fixed?: FixedFields): Promise<User> {
    requireWellFormedId(ID_PREFIX.user, 'User', id);
    const patch = parseInput(userInput.update, input);
    const passwordHash = patch.password
      ? await hashPassword(patch.password, this.db.config?.passwordScryptN)
      : undefined;
    const { organizationId } = principal;
    try {
      return await changeCredentials(this.db, id, async (tx) => {
        if (patch.role !== undefined) await lockAdminChanges(tx, organizationId);
        const before = await lockOwned<UserRow>(tx, 'User', 'User', organizationId, id);
        requireHolderOf(principal, before, 'change');
        refuseChangedFixed(toPublic(User, before), fixed, User);
        const role = patch.role ?? (before.role as UserRole);
        const scopes = nextScopes(before, role, patch.scopes);
        requireGrantable(principal, scopes);
        if (before.role === 'admin' && role !== 'admin') await requireAnotherAdmin(tx, organizationId, 'demote');
        await requireEmployee(tx, organizationId, patch.employeeId);
        const data = changedColumns(before, {
          email: patch.email,
          name: patch.name,
          role,
          scopes,
          employeeId: patch.employeeId,
          passwordHash,
        });
        if (Object.keys(data).length === 0) return toPublic(User, before);
        const after = await tx.user.update({ where: { id }, data: data as Prisma.UserUpdateInput });
        if (after.passwordHash !== before.passwordHash || !sameRights(before, after)) await endSignIns(tx, id);
        const object = toPublic(User, after);
        const previous = changedAttributes(toPublic(User, before), object);
        await emitEventBy(tx, principal, { type: 'user.updated', object, previousAttributes: previous });
        return object;
      });
    } catch (error) {
      throw uniqueConflict(error, CONFLICTS) ?? error;
    }
  }

  /**
   * The signed-in user's own new password, given the current one: a signed-in
   * browser only (a key or token acting for the user cannot). Like an admin's
   * change it ends the user's other sessions and OAuth grants, in the same
   * transaction; the session that asked stays signed in. A wrong current password
   * is a 400 naming `currentPassword`; the per-user rate limit and scrypt's cost
   * keep guessing slow.
   */
  async changeOwnPassword(principal: Principal, input: unknown): Promise<User> {
    const session = principal.credential.type === 'session' ? principal.credential.id : undefined;
    if (!session || !principal.userId) {
      throw new DomainError('FORBIDDEN', 'Only a signed-in user (the dashboard) can change their own password');
    }
    const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
    const userId = principal.userId;
    const stored = await this.db.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    if (!(await verifyPassword(currentPassword, stored.passwordHash))) {
      throw invalidField('currentPassword', 'is not your current password');
    }
    if (await verifyPassword(newPassword, stored.passwordHash)) {
      throw invalidField('newPassword', 'must differ from your current password');
    }
    const passwordHash = await hashPassword(newPassword, this.db.config?.passwordScryptN);
    return changeCredentials(this.db, userId, async (tx) => {
      const before = await lockOwned<UserRow>(tx, 'User', 'User', principal.organizationId, userId);
      // Changed meanwhile (another tab, an admin): the current password checked above is no longer it.
      if (before.passwordHash !== stored.passwordHash) {
        throw new DomainError('CONFLICT', 'Your password was changed meanwhile: sign in again', 'currentPassword');
      }
      const after = await tx.user.update({ where: { id: userId }, data: { passwordHash } });
      await endUserSessions(tx, userId, session);
      await revokeUserGrants(tx, userId);
      const object = toPublic(User, after);
      const previous = changedAttributes(toPublic(User, before), object);
      await emitEventBy(tx, principal, { type: 'user.updated', object, previousAttributes: previous });
      return object;
    });
  }

  /**
   * Deletes for good, with its sessions and OAuth grants; the API keys it created
   * are revoked (they stay listed, with no creator).
   */
  async delete(principal: Principal, id: string): Promise<boolean> {
    requireWellFormedId(ID_PREFIX.user, 'User', id);
    const { organizationId } = principal;
    // Cached credentials depend on the user: the keys it created (which name it as their
    // creator) and its OAuth tokens (deleted with it) are dropped everywhere.
    return changeCredentials(this.db, id, async (tx) => {
      await lockAdminChanges(tx, organizationId);
      const before = await lockOwned<UserRow>(tx, 'User', 'User', organizationId, id);
      requireHolderOf(principal, before, 'delete');
      if (before.role === 'admin') await requireAnotherAdmin(tx, organizationId, 'delete');
      await revokeKeysCreatedBy(tx, id);
      await tx.user.delete({ where: { id } });
      const object = toPublic(User, before);
      await emitEventBy(tx, principal, { type: 'user.deleted', object });
      return true;
    });
  }
}

/**
 * 400 naming employeeId unless it is an employee of the organization, locked
 * (KEY SHARE) until commit like a declared reference.
 */
async function requireEmployee(tx: Transaction, organizationId: string, employeeId: string | null | undefined) {
  if (typeof employeeId !== 'string') return;
  const found =
    isWellFormedIdWith(EMPLOYEE_ID_PREFIX, employeeId) &&
    (
      await tx.$queryRaw<unknown[]>`select 1 from "Employee"
        where id = ${employeeId} and "organizationId" = ${organizationId} for key share`
    ).length > 0;
  if (!found) throw invalidField('employeeId', 'no employee with this id in the organization');
}

/** Signs the user out everywhere and ends what apps hold for it (tokens, refresh grants, codes). */
async function endSignIns(tx: Transaction, userId: string): Promise<void> {
  await endUserSessions(tx, userId);
  await revokeUserGrants(tx, userId);
}

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
function nextScopes(before: UserRow, role: UserRole, sent: Scope[] | null | undefined): Scope[] {
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
function requireGrantable(principal: Principal, scopes: readonly Scope[]): void {
  const lacking = lackedBy(principal, scopes);
  if (!lacking.length) return;
  const field = lacking.includes('admin') ? 'role' : 'scopes';
  throw new DomainError('FORBIDDEN', `A user cannot be given scopes the caller lacks: ${lacking.join(', ')}`, field);
}

/** Changing a user (its password included) takes over its rights: the caller must hold them already. */
function requireHolderOf(principal: Principal, user: UserRow, action: 'change' | 'delete'): void {
  const lacking = lackedBy(principal, [...userScopes(user)]);
  if (!lacking.length) return;
  throw new DomainError('FORBIDDEN', `Cannot ${action} a user holding scopes the caller lacks: ${lacking.join(', ')}`);
}

function lackedBy(principal: Principal, scopes: readonly Scope[]): Scope[] {
  return scopes.filter((scope) => !hasScope(principal.scopes, scope));
}

/**
 * Serialises, per organization, the changes that may remove an admin (deletes,
 * role changes), so two of them at once cannot both see "another admin left".
 */
async function lockAdminChanges(tx: Transaction, organizationId: string): Promise<void> {
  await tx.$executeRaw`select pg_advisory_xact_lock(${ADMIN_CHANGE_LOCK}::int, hashtext(${organizationId}))`;
}

/** CONFLICT unless the organization has an admin besides the one being removed or demoted. */
async function requireAnotherAdmin(tx: Transaction, organizationId: string, action: 'demote' | 'delete') {
  const admins = await tx.user.count({ where: { organizationId, role: 'admin' } });
  if (admins > 1) return;
  throw new DomainError(
    'CONFLICT',
    `Cannot ${action} the organization's last admin: make another user an admin first`,
    action === 'demote' ? 'role' : undefined,
  );
}
