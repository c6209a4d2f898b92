// Leave requests, declared once (see kit/resource.ts): requested, then approved,
// rejected or cancelled (an approved one may still be cancelled); editable by
// PUT only while requested. Particular to them: `to` is not before `from`, and
// an employee's approved requests never overlap (approve locks the employee's
// row, so two concurrent approvals of overlapping requests cannot both pass),
// and no leave is requested or approved past a terminated employee's end date.
import { event } from '../../../events/event.js';
import { DomainError } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { decision, refuseOwnDecision } from '../employee/decisions.js';
import { employees } from '../employee/index.js';
import { leaveRequestInput, leaveRequestList, rejectInput } from './input.js';
import { LeaveRequest } from './type.js';

/**
 * Refuses leave ending after a terminated employee's end date (leave within
 * the employment, recorded after it ended, is fine). With `lock`, the
 * employee's row stays locked until commit, so a concurrent terminate waits.
 */
async function withinEmployment(employeeId: unknown, to: unknown, rules: RuleContext, lock: string): Promise<void> {
  const [employee] = await rules.query<{ status: string; endDate: string | null }>(
    `select status, to_char("endDate", 'YYYY-MM-DD') as "endDate" from "Employee"
     where id = $1 and "organizationId" = $2 for ${lock}`,
    [employeeId, rules.organizationId],
  );
  if (!employee || employee.status !== 'terminated') return; // an unknown employee: the reference check's 400
  if (employee.endDate === null || (typeof to === 'string' && to > employee.endDate)) {
    throw new DomainError(
      'CONFLICT',
      `The employee was terminated${employee.endDate ? ` on ${employee.endDate}` : ''}; leave must end by then`,
      'employeeId',
    );
  }
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
          "Approves the request; 409 when it overlaps another approved request of the employee's, 403 when " +
          "the caller acts for the request's employee (a user linked to it). Records `decidedBy`.",
        sets: async (_input, request, rules) => {
          await refuseOwnDecision(rules, request.employeeId, 'leave request');
          // Locked until commit: a concurrent approval for this employee waits, then sees this one.
          await withinEmployment(request.employeeId, request.to, rules, 'update');
          const [overlap] = await rules.query<{ id: string }>(
            `select id from "LeaveRequest" where "organizationId" = $1 and "employeeId" = $2 and status = 'approved'
               and id <> $3 and "from" <= $5::date and "to" >= $4::date limit 1`,
            [rules.organizationId, request.employeeId, request.id, request.from, request.to],
          );
          if (overlap) {
            throw new DomainError('CONFLICT', `It overlaps the approved leave request ${overlap.id}`, 'from');
          }
          return { decidedAt: NOW, ...decision(rules) };
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
    async create({ employeeId, to }, rules) {
      await withinEmployment(employeeId, to, rules, 'share');
    },
    async update({ before, changes }, rules) {
      if ('to' in changes) await withinEmployment(before.employeeId, changes.to, rules, 'share');
    },
  },
  descriptions: {
    create: 'Starts as requested. Emits `leave.requested`.',
    update: 'Partial; only while requested (else 409). Emits `leave.updated`.',
  },
  examples: {
    create: (n) => ({ type: 'vacation', from: '2026-07-01', to: '2026-07-03', reason: `Trip ${n}` }),
    update: { type: 'personal', reason: 'Moving house' },
    actions: { reject: { reason: 'Peak season' } },
  },
});
