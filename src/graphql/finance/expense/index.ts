// Expenses, declared once (see kit/resource.ts). Particular to them: the
// employee is one of the organization (an HR record), only a draft can be
// edited, and each move after the draft raises its event and stamps its time.
import { event } from '../../../events/event.js';
import { decision, refuseOwnDecision } from '../../hr/employee/decisions.js';
import { employees } from '../../hr/employee/index.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { expenseInput, expenseList, rejectInput } from './input.js';
import { Expense } from './type.js';

export const expenses = defineResource({
  type: Expense,
  idPrefix: 'exp',
  area: AREAS.finance,
  path: 'expenses',
  names: { one: 'expense', many: 'expenses' },
  input: expenseInput,
  list: expenseList,
  // Reading the employee needs hr:read; an employee's expenses need finance:read.
  references: { employeeId: { target: employees, onDelete: 'cascade' } },
  events: {
    created: event('expense.created', 'A draft expense was created (POST /finance/expenses).'),
    updated: event('expense.updated', 'A draft expense was changed (PUT /finance/expenses/:id).'),
  },
  descriptions: {
    create: 'Starts as a draft. Emits `expense.created`.',
    update: 'Only while draft. Emits `expense.updated`.',
  },
  lifecycle: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    actions: {
      submit: {
        from: ['draft'],
        to: 'submitted',
        description: 'Sends the draft for approval (stamps `submittedAt`); it can no longer be edited.',
        changes: ['submittedAt'],
        sets: () => ({ submittedAt: NOW }),
        event: event('expense.submitted', 'An expense was submitted for approval.'),
      },
      approve: {
        from: ['submitted'],
        to: 'approved',
        description:
          'Approves a submitted expense (stamps `decidedAt`, records `decidedBy`); 403 when the caller acts for the ' +
          "expense's employee (a user linked to it).",
        changes: ['decidedAt', 'decidedBy'],
        sets: async (_input, expense, rules) => {
          await refuseOwnDecision(rules, expense.employeeId, 'expense');
          return { decidedAt: NOW, ...decision(rules) };
        },
        event: event('expense.approved', 'An expense was approved.'),
      },
      reject: {
        from: ['submitted'],
        to: 'rejected',
        description:
          'Rejects a submitted expense, with an optional `reason` (stamps `decidedAt`, records `decidedBy`); final. ' +
          "403 when the caller acts for the expense's employee.",
        input: rejectInput,
        changes: ['decidedAt', 'decidedBy', 'rejectionReason'],
        sets: async ({ reason }, expense, rules) => {
          await refuseOwnDecision(rules, expense.employeeId, 'expense');
          return { decidedAt: NOW, ...decision(rules), rejectionReason: reason ?? null };
        },
        event: event('expense.rejected', 'An expense was rejected.'),
      },
      reimburse: {
        from: ['approved'],
        to: 'reimbursed',
        description: 'Records that an approved expense was paid back (stamps `reimbursedAt`); final.',
        changes: ['reimbursedAt'],
        sets: () => ({ reimbursedAt: NOW }),
        event: event('expense.reimbursed', 'An approved expense was reimbursed.'),
      },
    },
  },
  examples: {
    create: (n) => ({
      amount: 100 * n,
      currency: 'EUR',
      category: 'travel',
      incurredOn: '2026-03-14',
      description: 'Train',
      receiptUrl: `https://receipts.example.test/${n}.pdf`,
    }),
    update: { amount: 777, description: 'Changed' },
    actions: { reject: { reason: 'No receipt' } },
  },
});
