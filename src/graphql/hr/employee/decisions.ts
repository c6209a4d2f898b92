// Who decides: the approve and reject actions of leave requests and expenses
// record who made the decision (`decidedBy`, the actor of their event), and
// refuse a decision about one's own request: when the user the caller acts for
// (a session's or OAuth token's user, or the creator of the API key used) is
// linked to the request's employee (`employeeId` on the user), 403.
import { DomainError } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';

/** 403 when the caller acts for the user linked to `employeeId`. */
export async function refuseOwnDecision(rules: RuleContext, employeeId: string, what: string): Promise<void> {
  if (!rules.userId) return;
  const own = await rules.query(`select 1 from "User" where id = $1 and "organizationId" = $2 and "employeeId" = $3`, [
    rules.userId,
    rules.organizationId,
    employeeId,
  ]);
  if (own.length) {
    throw new DomainError('FORBIDDEN', `Nobody decides on their own ${what}: another person must`, 'employeeId');
  }
}

/** What a decision records beside its time: who made it (the actor its event names). */
export const decision = (rules: RuleContext) => ({ decidedBy: rules.actor });
