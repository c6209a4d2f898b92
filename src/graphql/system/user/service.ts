// The users' service: the kit's (list, get, create, update, delete: index.ts and
// rules.ts), and the signed-in user's own password change (the account's).
import { actorOf, type Principal } from '../../../auth/principal.js';
import { hashPassword, verifyPassword } from '../../../auth/passwords.js';
import { DomainError, invalidField, notFound } from '../../../errors.js';
import { USER_EVENTS } from '../../../events/system-events.js';
import { parseInput } from '../../../validation.js';
import { ResourceService } from '../../kit/resource-service.js';
import { droppedAfterCommit, ruleContextOf, type EndedCredentials } from '../../kit/rule-context.js';
import { updateRecord } from '../../kit/store.js';
import { inTransaction } from '../../kit/transactions.js';
import { revokeUserGrants } from '../oauth-grant/service.js';
import { endUserSessions } from '../session/service.js';
import { changePasswordSchema } from './input.js';
import type { User } from './type.js';

/** What a password change reads of the user: its hash, and when it last changed. */
interface StoredPassword {
  passwordHash: string;
  updatedAt: Date;
}

const STORED_PASSWORD = `select "passwordHash", "updatedAt" from "User" where id = $1 and "organizationId" = $2`;

export class UserService extends ResourceService<User> {
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
    const { userId, organizationId } = principal;
    const [stored] = (await this.db.pool.query<StoredPassword>(STORED_PASSWORD, [userId, organizationId])).rows;
    if (!stored) throw notFound('User');
    if (!(await verifyPassword(currentPassword, stored.passwordHash))) {
      throw invalidField('currentPassword', 'is not your current password');
    }
    if (await verifyPassword(newPassword, stored.passwordHash)) {
      throw invalidField('newPassword', 'must differ from your current password');
    }
    const passwordHash = await hashPassword(newPassword, this.db.config?.passwordScryptN);
    const ended: EndedCredentials = [];
    const changed = await inTransaction(this.db.pool, async (client) => {
      const rules = ruleContextOf(client, principal, { deps: this.db, ended });
      const [before] = await rules.query<StoredPassword>(`${STORED_PASSWORD} for update`, [userId, organizationId]);
      if (!before) throw notFound('User');
      // Changed meanwhile (another tab, an admin): the current password checked above is no longer it.
      if (before.passwordHash !== stored.passwordHash) {
        throw new DomainError('CONFLICT', 'Your password was changed meanwhile: sign in again', 'currentPassword');
      }
      await endUserSessions(rules, userId, session);
      await revokeUserGrants(rules, userId);
      await rules.endCredentials!(userId);
      const events = [{ type: USER_EVENTS.updated.type, previousAttributes: { updatedAt: before.updatedAt } }];
      const target = { organizationId, id: userId, changes: { passwordHash }, events, actor: actorOf(principal) };
      return (await updateRecord(client, this.resource, target))!;
    });
    droppedAfterCommit(this.db, ended);
    return changed;
  }
}
