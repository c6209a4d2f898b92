// Expenses, declared once (see kit/resource.ts). Particular to them: the
// employee is one of the organization (an HR record), only a draft can be
// edited, and each move after the draft raises its event and stamps its time.
import { employees } from '../../hr/employee/index.js';
import { defineResource } from '../../kit/define-resource.js';
import { withRelations } from '../../kit/relations.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { expenseInput, expenseList, rejectInput } from './input.js';
import { EXPENSE_STATUSES, Expense } from './type.js';

export const expenses = defineResource({
  type: Expense,
  idKind: 'expense',
  area: AREAS.finance,
  path: 'expenses',
  names: { one: 'expense', many: 'expenses' },
  input: expenseInput,
  list: expenseList,
  references: { employeeId: { table: 'Employee', idKind: 'employee', label: 'employee' } },
  events: { created: 'expense.created', updated: 'expense.updated' },
  descriptions: {
    create: 'Starts as a draft. Emits `expense.created`.',
    update: 'Only while draft. Emits `expense.updated`.',
  },
  lifecycle: {
    field: 'status',
    states: EXPENSE_STATUSES,
    initial: 'draft',
    editableIn: ['draft'],
    actions: {
      submit: {
        from: ['draft'],
        to: 'submitted',
        description: 'Sends the draft for approval (stamps `submittedAt`); it can no longer be edited.',
        changes: ['submittedAt'],
        sets: () => ({ submittedAt: NOW }),
        event: 'expense.submitted',
      },
      approve: {
        from: ['submitted'],
        to: 'approved',
        description: 'Approves a submitted expense (stamps `decidedAt`).',
        changes: ['decidedAt'],
        sets: () => ({ decidedAt: NOW }),
        event: 'expense.approved',
      },
      reject: {
        from: ['submitted'],
        to: 'rejected',
        description: 'Rejects a submitted expense, with an optional `reason` (stamps `decidedAt`); final.',
        input: rejectInput,
        changes: ['decidedAt', 'rejectionReason'],
        sets: ({ reason }) => ({ decidedAt: NOW, rejectionReason: reason ?? null }),
        event: 'expense.rejected',
      },
      reimburse: {
        from: ['approved'],
        to: 'reimbursed',
        description: 'Records that an approved expense was paid back (stamps `reimbursedAt`); final.',
        changes: ['reimbursedAt'],
        sets: () => ({ reimbursedAt: NOW }),
        event: 'expense.reimbursed',
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

// Reading the employee needs hr:read; an employee's expenses need finance:read.
export const expenseModule = withRelations(expenses, {
  field: 'employeeId',
  name: 'employee',
  target: employees.resource,
  inverse: { name: 'expenses', description: "The employee's expenses, oldest first." },
});
