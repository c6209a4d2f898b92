// Leave policies, declared once (see kit/resource.ts): per type of leave (not
// unpaid), the days a year, how they accrue, how many carry over and whether a
// balance may go below zero. The balances (src/graphql/hr/leave-balance/) and
// the approval of a leave request read them. Particular to them: one policy per
// type and first year (`fromYear`, null for every year); a type without a
// policy is not limited.
import { event } from '../../../events/event.js';
import { DomainError } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { leavePolicyInput, leavePolicyList } from './input.js';
import { LeavePolicy } from './type.js';

/**
 * 409 naming `type` when another policy of the organization has this type and
 * fromYear. Concurrent writes of one type wait on a transaction lock, so two
 * cannot both pass (the unique index behind it is the last guard).
 */
async function requireOnlyPolicy(rules: RuleContext, type: unknown, fromYear: unknown, id: unknown): Promise<void> {
  await rules.query(`select pg_advisory_xact_lock(hashtext($1))`, [`LeavePolicy:${rules.organizationId}:${type}`]);
  const [other] = await rules.query<{ id: string }>(
    `select id from "LeavePolicy" where "organizationId" = $1 and type = $2
       and "fromYear" is not distinct from $3::int and id <> $4 limit 1`,
    [rules.organizationId, type, fromYear ?? null, id],
  );
  if (other) {
    const years = fromYear == null ? 'every year' : `from ${String(fromYear)}`;
    throw new DomainError('CONFLICT', `A ${String(type)} policy for ${years} already exists (${other.id})`, 'type');
  }
}

export const leavePolicies = defineResource({
  type: LeavePolicy,
  idPrefix: 'lvp',
  area: AREAS.hr,
  path: 'leave-policies',
  names: { one: 'leavePolicy', many: 'leavePolicies' },
  noun: ['leave policy', 'leave policies'],
  input: leavePolicyInput,
  list: leavePolicyList,
  operations: { delete: true },
  events: {
    created: event('leave_policy.created', 'A leave policy was added (POST /hr/leave-policies).'),
    updated: event('leave_policy.updated', 'A leave policy was changed (PUT /hr/leave-policies/:id).'),
    deleted: event(
      'leave_policy.deleted',
      'A leave policy was deleted (DELETE /hr/leave-policies/:id); data.object is the policy as it was.',
    ),
  },
  rules: {
    async create({ id, type, fromYear }, rules) {
      await requireOnlyPolicy(rules, type, fromYear, id);
    },
    async update({ before, changes }, rules) {
      if (!('type' in changes) && !('fromYear' in changes)) return;
      const after = { ...before, ...changes };
      await requireOnlyPolicy(rules, after.type, after.fromYear, before.id);
    },
  },
  conflicts: {
    create: 'A policy of this type and fromYear already exists',
    update: 'A policy of this type and fromYear already exists',
  },
  descriptions: {
    create:
      'One policy per type and fromYear (409 naming type). Balances: GET /hr/employees/:id/leave-balances. ' +
      'Emits `leave_policy.created`.',
    delete: 'The type is no longer limited (for the years this policy covered). Emits `leave_policy.deleted`.',
  },
  examples: {
    // A type and a first year per n (four types a year), so that each example is a policy of its own.
    create: (n) => ({
      type: (['vacation', 'sick', 'personal', 'other'] as const)[(n - 1) % 4],
      fromYear: 2026 + Math.floor((n - 1) / 4),
      daysPerYear: 25,
      accrual: 'yearly',
      carryOverDays: 5,
      allowNegative: false,
    }),
    update: { daysPerYear: 30, carryOverDays: 10 },
  },
});
