// Signed-in browsers. A user signs in with email and password (the OAuth
// consent now, the dashboard later); the session's token lives in a cookie and
// only its SHA-256 here. Signing in raises `user.logged_in` in the same
// transaction as the session. A session ends at its absolute end, or earlier
// when left idle (SESSION_IDLE_TIMEOUT_S): each use slides its lastSeenAt,
// written at most once a minute so a busy browser costs few writes.
import { generateOAuthSecret, looksLike } from '../../../auth/oauth-token-format.js';
import { hashPassword, needsRehash, verifyPassword } from '../../../auth/passwords.js';
import { sha256Hex } from '../../../auth/secrets.js';
import type { UserRights } from '../../../auth/user-scopes.js';
import { newId } from '../../../ids.js';
import { emitEvent } from '../../../events/emit.js';
import { USER_LOGGED_IN } from '../../../events/system-events.js';
import { toPublic } from '../../kit/fields.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { User } from '../user/type.js';

/** How long a sign-in lasts (docs/decisions.md, Authorization service). */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

/** SESSION_IDLE_TIMEOUT_S's default, for callers built without a configuration. */
const DEFAULT_IDLE_TIMEOUT_SECONDS = 30 * 60;

/** lastSeenAt is written when it is at least this old, so idleness is measured to the minute. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionUser extends UserRights {
  id: string;
  organizationId: string;
  email: string;
  name: string | null;
}

/** A live session: its id (the session credential's) and its user as stored now. */
export interface LiveSession {
  id: string;
  user: SessionUser;
}

export interface SignedIn {
  token: string;
  expiresAt: Date;
  user: SessionUser;
}

/** A live session as its own user sees it (the account page): when, from what, until when. */
export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** When it ends unless used before: the idle timeout from lastSeenAt, or its absolute end if sooner. */
  endsAt: Date;
  expiresAt: Date;
  userAgent: string | null;
}

/** The most of a User-Agent a session keeps. */
const USER_AGENT_LIMIT = 300;

export class SessionService {
  /** Checked against when the email is unknown, so the answer takes as long as for a known one. */
  private decoyHash: Promise<string> | undefined;

  private readonly idleTimeoutMs: number;

  constructor(private readonly db: ServiceDependencies) {
    this.idleTimeoutMs = (db.config?.oauth.sessionIdleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS) * 1000;
  }

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

  /** Starts a session for a user whose credentials were verified, noting the browser; emits user.logged_in. */
  async start(user: SessionUser, userAgent?: string): Promise<SignedIn> {
    const token = generateOAuthSecret('session');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
    await this.db.prisma.$transaction(async (tx) => {
      await tx.session.create({
        data: {
          id: newId('session'),
          tokenHash: token.hash,
          userId: user.id,
          organizationId: user.organizationId,
          expiresAt,
          lastSeenAt: now,
          userAgent: userAgent ? userAgent.replaceAll('\u0000', '').slice(0, USER_AGENT_LIMIT) : null,
        },
      });
      const row = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
      await emitEvent(tx, {
        organizationId: user.organizationId,
        type: USER_LOGGED_IN.type,
        object: toPublic(User, row),
        actor: { type: 'user', id: user.id },
      });
    });
    return { token: token.value, expiresAt, user };
  }

  /** The signed-in user of a live session, or undefined; a use keeps the session from going idle. */
  async find(token: string | undefined): Promise<SessionUser | undefined> {
    return (await this.findLive(token))?.user;
  }

  /** The live session (its id and user) of this token, or undefined; a use keeps it from going idle. */
  async findLive(token: string | undefined): Promise<LiveSession | undefined> {
    if (!looksLike('session', token)) return undefined;
    const row = await this.db.prisma.session.findUnique({
      where: { tokenHash: sha256Hex(token) },
      include: { user: true },
    });
    if (!row) return undefined;
    const now = Date.now();
    const idleFor = now - row.lastSeenAt.getTime();
    if (row.expiresAt.getTime() <= now) return undefined;
    if (idleFor >= this.idleTimeoutMs) {
      // Ended for good: raising the setting later does not bring it back.
      await this.db.prisma.session.deleteMany({ where: { id: row.id } });
      return undefined;
    }
    if (idleFor >= LAST_SEEN_RESOLUTION_MS) {
      await this.db.prisma.session.updateMany({ where: { id: row.id }, data: { lastSeenAt: new Date(now) } });
    }
    return { id: row.id, user: sessionUser(row.user) };
  }

  /** The user's live sessions, the most recently used first. */
  async liveOf(userId: string): Promise<SessionSummary[]> {
    const now = Date.now();
    const rows = await this.db.prisma.session.findMany({
      where: { userId, expiresAt: { gt: new Date(now) }, lastSeenAt: { gt: new Date(now - this.idleTimeoutMs) } },
      orderBy: [{ lastSeenAt: 'desc' }, { id: 'desc' }],
    });
    return rows.map(({ id, createdAt, lastSeenAt, expiresAt, userAgent }) => ({
      id,
      createdAt,
      lastSeenAt,
      expiresAt,
      endsAt: new Date(Math.min(expiresAt.getTime(), lastSeenAt.getTime() + this.idleTimeoutMs)),
      userAgent,
    }));
  }

  /** Ends one of the user's sessions (signs that browser out); false when the user has none of this id. */
  async endOf(userId: string, id: string): Promise<boolean> {
    const { count } = await this.db.prisma.session.deleteMany({ where: { id, userId } });
    return count > 0;
  }

  /** Ends every session of the user but `keep` (the one asking); answers how many ended. */
  async endOthersOf(userId: string, keep: string): Promise<number> {
    const { count } = await this.db.prisma.session.deleteMany({ where: { userId, id: { not: keep } } });
    return count;
  }

  async end(token: string | undefined): Promise<void> {
    if (!looksLike('session', token)) return;
    await this.db.prisma.session.deleteMany({ where: { tokenHash: sha256Hex(token) } });
  }
}

/**
 * Signs the user out everywhere, in the transaction of a password or rights change (its
 * rules' statement); `keep`: but this session (the one that changed its own password).
 */
export function endUserSessions(rules: Pick<RuleContext, 'query'>, userId: string, keep?: string): Promise<unknown> {
  return rules.query(`delete from "Session" where "userId" = $1 and id is distinct from $2`, [userId, keep ?? null]);
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
