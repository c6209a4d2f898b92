// Signed-in browsers. A user signs in with email and password (the OAuth
// consent now, the dashboard later); the session's token lives in a cookie and
// only its SHA-256 here. Signing in raises `user.logged_in` in the same
// transaction as the session.
import { generateOAuthSecret, looksLike } from '../../../auth/oauth-token-format.js';
import { hashPassword, needsRehash, verifyPassword } from '../../../auth/passwords.js';
import { sha256Hex } from '../../../auth/secrets.js';
import type { UserRights } from '../../../auth/user-scopes.js';
import type { Transaction } from '../../../db/prisma.js';
import { newId } from '../../../ids.js';
import { emitEvent } from '../../../jobs/events.js';
import { toPublic } from '../../kit/fields.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { User } from '../user/type.js';

/** How long a sign-in lasts (decisions.md, Authorization service). */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

export interface SessionUser extends UserRights {
  id: string;
  organizationId: string;
  email: string;
  name: string | null;
}

export interface SignedIn {
  token: string;
  expiresAt: Date;
  user: SessionUser;
}

export class SessionService {
  /** Checked against when the email is unknown, so the answer takes as long as for a known one. */
  private decoyHash: Promise<string> | undefined;

  constructor(private readonly db: ServiceDependencies) {}

  /**
   * The user with this email and password, or undefined (for either being wrong).
   * A password hashed at a lower cost than today's is hashed again now.
   */
  async verifyCredentials(email: string, password: string): Promise<SessionUser | undefined> {
    const row = await this.db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
    const scryptN = this.db.config?.passwordScryptN;
    this.decoyHash ??= hashPassword('decoy password that matches nothing', scryptN);
    const ok = await verifyPassword(password, row?.passwordHash ?? (await this.decoyHash));
    if (!row || !ok) return undefined;
    if (needsRehash(row.passwordHash, scryptN)) {
      // Not a password change: nothing else of the user changes (updatedAt kept), and
      // a password changed meanwhile is not overwritten.
      await this.db.prisma.user.updateMany({
        where: { id: row.id, passwordHash: row.passwordHash },
        data: { passwordHash: await hashPassword(password, scryptN), updatedAt: row.updatedAt },
      });
    }
    return sessionUser(row);
  }

  /** Starts a session for a user whose credentials were verified; emits user.logged_in. */
  async start(user: SessionUser): Promise<SignedIn> {
    const token = generateOAuthSecret('session');
    const expiresAt = new Date(Date.now() + SESSION_LIFETIME_SECONDS * 1000);
    await this.db.prisma.$transaction(async (tx) => {
      await tx.session.create({
        data: {
          id: newId('session'),
          tokenHash: token.hash,
          userId: user.id,
          organizationId: user.organizationId,
          expiresAt,
        },
      });
      const row = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
      await emitEvent(tx, {
        organizationId: user.organizationId,
        type: 'user.logged_in',
        object: toPublic(User, row),
      });
    });
    return { token: token.value, expiresAt, user };
  }

  /** The signed-in user of a live session, or undefined. */
  async find(token: string | undefined): Promise<SessionUser | undefined> {
    if (!looksLike('session', token)) return undefined;
    const row = await this.db.prisma.session.findUnique({
      where: { tokenHash: sha256Hex(token) },
      include: { user: true },
    });
    if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
    return sessionUser(row.user);
  }

  async end(token: string | undefined): Promise<void> {
    if (!looksLike('session', token)) return;
    await this.db.prisma.session.deleteMany({ where: { tokenHash: sha256Hex(token) } });
  }
}

/** Signs the user out everywhere, in the caller's transaction (a password or rights change). */
export function endUserSessions(tx: Transaction, userId: string): Promise<unknown> {
  return tx.session.deleteMany({ where: { userId } });
}

function sessionUser(row: {
  id: string;
  organizationId: string;
  email: string;
  name: string | null;
  role: string;
  scopes: string[];
}): SessionUser {
  const { id, organizationId, email, name, role, scopes } = row;
  return { id, organizationId, email, name, role, scopes };
}
