// What a user holds, and so may grant when signing in (dashboard, OAuth
// consent): an admin holds every scope, a member exactly the scopes listed on
// it. Read from the stored role, so an unexpected role grants nothing extra.
import { hasScope, isScope, type Scope } from './scopes.js';

export const USER_ROLES = ['admin', 'member'] as const;

export type UserRole = (typeof USER_ROLES)[number];

/** The stored parts of a user that decide its rights. */
export interface UserRights {
  role: string;
  scopes: readonly string[];
}

/** The user's scopes: `admin` for an admin (implying all), else the member's known scopes without `admin`. */
export function userScopes(user: UserRights): Set<Scope> {
  if (user.role === 'admin') return new Set<Scope>(['admin']);
  return new Set(user.scopes.filter(isScope).filter((scope) => scope !== 'admin'));
}

/** The requested scopes this user may grant (to a token, a key): the rest are dropped. */
export function grantableScopes(user: UserRights, requested: readonly Scope[]): Scope[] {
  const held = userScopes(user);
  return requested.filter((scope) => hasScope(held, scope));
}

/**
 * What a credential given `scopes` by this user may do now: what both allow.
 * `admin` on one side yields to the other's scopes, so an `admin` key of a
 * member holds the member's scopes, and a member's key of an admin its own.
 */
export function withinRights(scopes: readonly string[], user: UserRights): Set<string> {
  const held = userScopes(user);
  const given = new Set(scopes);
  const kept = scopes.filter((scope) => isScope(scope) && hasScope(held, scope));
  return new Set([...kept, ...[...held].filter((scope) => hasScope(given, scope))]);
}

/** Who an API key acts for: the stored parts that decide what it may do. */
export interface KeyMaker {
  createdByUserId: string | null;
  operatorIssued: boolean;
}

/**
 * A key with no creator that the operator did not make: its creator was deleted
 * (SetNull). Such a key holds nothing, whatever else went wrong (deleting a user
 * revokes its keys too), rather than every scope it was given.
 */
export function isOrphanedKey(key: KeyMaker): boolean {
  return key.createdByUserId === null && !key.operatorIssued;
}

/** The scopes an API key may use now: its own, within its creator's current rights (an operator's key has no creator). */
export function keyScopes(key: KeyMaker & { scopes: readonly string[]; createdBy: UserRights | null }): Set<string> {
  if (key.createdBy) return withinRights(key.scopes, key.createdBy);
  return isOrphanedKey(key) ? new Set() : new Set(key.scopes);
}
