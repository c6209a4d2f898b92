// Leave requests, declared once (see kit/resource.ts): requested, then approved,
// rejected or cancelled (an approved one may still be cancelled); editable by
// PUT only while requested. Particular to them: `to` is not before `from`; the
// leave takes at least one working day (`days`, counted when requested, when
// its dates change and again when approved: src/graphql/hr/calendar/working-days.ts);
// it lies within one period of the employee's employment (employment.ts); an
// employee's approved requests never overlap (approve locks the employee's row,
// so two concurrent approvals of overlapping requests cannot both pass); and an
// approval keeps to the balance of the type's leave policy (leave-balance/).
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { workingDaysBetween } from '../calendar/working-days.js';
import { decision, refuseOwnDecision } from '../employee/decisions.js';
import { employees } from '../employee/index.js';
import { requireLeaveBalance } from '../leave-balance/service.js';
import { requireWithinEmployment } from './employment.js';
import { leaveRequestInput, leaveRequestList, rejectInput } from './input.js';
import { LeaveRequest } from './type.js';

/** The working days from `from` to `to`: at least one, else a 400 naming `from`. */
async function workingDaysOf(rules: RuleContext, from: string, to: string): Promise<number> {
  const { count } = await workingDaysBetween(rules, from, to);
  if (count === 0) {
    throw invalidField(
      'from',
      `the leave from ${from} to ${to} takes no working day (the days off of the working week and holidays do not count)`,
    );
  }
  return count;
}

export const leaveRequests = defineResource({
  type: LeaveRequest,
  idPrefix: 'lve',
  area: AREAS.hr,
  path: 'leave-requests',
  names: { one: 'leaveRequest', many: 'leaveRequests' },
  input: leaveRequestInput,
  list: leaveRequestList,
  references: { employeeId: { target: employees, onDelete: 'cascade' } },
  events: {
    created: event('leave.requested', 'A leave request was made (POST /hr/leave-requests).'),
    updated: event('leave.updated', 'A pending leave request was changed (PUT /hr/leave-requests/:id).'),
  },
  lifecycle: {
    field: 'status',
    initial: 'requested',
    editableIn: ['requested'],
    actions: {
      approve: {
        from: ['requested'],
        to: 'approved',
        description:
          'Approves the request, counting its working `days` again (holidays may have changed since): 409 when it ' +
          "overlaps another approved request of the employee's, lies outside the employment (naming from or to), " +
          'now takes no working day (naming from), or takes more days than the balance of its leave policy ' +
          'leaves (naming days; unless the policy allows negative balances); 403 when the caller acts for the ' +
          "request's employee (a user linked to it). Records `decidedBy`.",
        conflict:
          'It overlaps an approved request, lies outside the employment, takes no working day, or exceeds the balance',
        sets: async (_input, request, rules) => {
          await refuseOwnDecision(rules, request.employeeId, 'leave request');
          // Locked until commit: a concurrent approval for this employee waits, then sees this one.
          await requireWithinEmployment(rules, request.employeeId, request.from, request.to, 'update');
          const { count: days } = await workingDaysBetween(rules, request.from, request.to);
          if (days === 0) {
            throw new DomainError(
              'CONFLICT',
              `The leave from ${request.from} to ${request.to} no longer takes a working day (a holiday was added)`,
              'from',
            );
          }
          const [overlap] = await rules.query<{ id: string }>(
            `select id from "LeaveRequest" where "organizationId" = $1 and "employeeId" = $2 and status = 'approved'
               and id <> $3 and "from" <= $5::date and "to" >= $4::date limit 1`,
            [rules.organizationId, request.employeeId, request.id, request.from, request.to],
          );
          if (overlap) {
            throw new DomainError('CONFLICT', `It overlaps the approved leave request ${overlap.id}`, 'from');
          }
          await requireLeaveBalance(rules, { ...request, days });
          return { decidedAt: NOW, ...decision(rules), ...(days !== request.days && { days }) };
        },
        changes: ['decidedAt', 'decidedBy'],
        event: event('leave.approved', 'A leave request was approved.'),
      },
      reject: {
        from: ['requested'],
        to: 'rejected',
        description:
          "Rejects the request; `reason` is kept as rejectionReason. 403 when the caller acts for the request's " +
          'employee. Records `decidedBy`.',
        input: rejectInput,
        sets: async ({ reason }, request, rules) => {
          await refuseOwnDecision(rules, request.employeeId, 'leave request');
          return { rejectionReason: reason ?? null, decidedAt: NOW, ...decision(rules) };
        },
        changes: ['rejectionReason', 'decidedAt', 'decidedBy'],
        event: event('leave.rejected', 'A leave request was rejected.'),
      },
      cancel: {
        from: ['requested', 'approved'],
        to: 'cancelled',
        description: 'Withdraws the request, approved or not.',
        event: event('leave.cancelled', 'A leave request was cancelled.'),
      },
    },
  },
  rules: {
    check({ from, to }) {
      if (typeof from === 'string' && typeof to === 'string' && to < from) {
        throw new DomainError('VALIDATION_ERROR', "'to': must not be before from", 'to');
      }
    },
    async create({ employeeId, from, to }, rules) {
      const days = await workingDaysOf(rules, from as string, to as string);
      await requireWithinEmployment(rules, employeeId, from as string, to as string, 'share');
      return { days };
    },
    async update({ before, changes }, rules) {
      if (!('from' in changes) && !('to' in changes)) return;
      const { from, to } = { ...before, ...changes } as LeaveRequest;
      const days = await workingDaysOf(rules, from, to);
      await requireWithinEmployment(rules, before.employeeId, from, to, 'share');
      return days === before.days ? {} : { days };
    },
  },
  conflicts: {
    create: 'The leave lies outside the employment (naming from or to)',
    update: 'The leave lies outside the employment (naming from or to)',
  },
  descriptions: {
    create:
      'Starts as requested, with `days` its working days (400 naming from when it takes none). ' +
      'Emits `leave.requested`.',
    update: 'Partial; only while requested (else 409); new dates count `days` again. Emits `leave.updated`.',
  },
  examples: {
    create: (n) => ({ type: 'vacation', from: '2026-07-01', to: '2026-07-03', reason: `Trip ${n}` }),
    update: { type: 'personal', reason: 'Moving house' },
    actions: { reject: { reason: 'Peak season' } },
  },
});
