// Pay components, declared once (see kit/resource.ts): per employee, an earning
// or a deduction, a fixed amount per month or a percentage of gross, from a
// date to a date. Payroll runs add them to each payslip (payroll-run/payslip.ts).
// Particular to them: exactly one of amount and percentage; `to` not before
// `from`; codes of their own (not the run's salary and unpaid_leave lines); and
// one component per code and day for an employee (409 naming code; the
// employee's row is locked first, so two overlapping ones cannot both pass).
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { employees } from '../employee/index.js';
import { payComponentInput, payComponentList } from './input.js';
import { PayComponent } from './type.js';

/** The codes of the lines a run writes itself. */
const RUN_CODES = ['salary', 'unpaid_leave'];

type Values = Record<string, unknown>;

/** 409 when another component of the employee with this code applies on a day this one does. */
async function requireNoOverlap(rules: RuleContext, component: Values, except?: string) {
  const [employee] = await rules.query(
    `select 1 from "Employee" where id = $1 and "organizationId" = $2 for no key update`,
    [component.employeeId, rules.organizationId],
  );
  if (!employee) return; // not the organization's: the reference check's 400
  const [overlap] = await rules.query<{ id: string }>(
    `select id from "PayComponent" where "employeeId" = $1 and code = $2 and id <> $3
       and "from" <= coalesce($5::date, 'infinity') and coalesce("to", 'infinity') >= $4::date limit 1`,
    [component.employeeId, component.code, except ?? '', component.from, component.to ?? null],
  );
  if (overlap) {
    throw new DomainError(
      'CONFLICT',
      `The employee's component ${overlap.id} has this code on some of these days: end it first (its to)`,
      'code',
    );
  }
}

export const payComponents = defineResource({
  type: PayComponent,
  idPrefix: 'pcp',
  area: AREAS.payroll,
  path: 'pay-components',
  names: { one: 'payComponent', many: 'payComponents' },
  input: payComponentInput,
  list: payComponentList,
  operations: { delete: true },
  references: { employeeId: { target: employees, onDelete: 'cascade' } },
  events: {
    created: event('pay_component.created', 'A pay component was added (POST /hr/pay-components).'),
    updated: event('pay_component.updated', 'A pay component was changed (PUT /hr/pay-components/:id).'),
    deleted: event('pay_component.deleted', 'A pay component was deleted (DELETE /hr/pay-components/:id).'),
  },
  conflicts: {
    create: 'Another component of the employee has this code on some of these days',
    update: 'Another component of the employee has this code on some of these days',
  },
  descriptions: {
    create:
      "An earning or a deduction on the employee's payslips from `from` to `to`: either `amount`, a fixed " +
      'amount per month (prorated like the salary by the days it applies in a month, inside the employment), or ' +
      '`percentage`, of the gross for a deduction and of the salary paid for an earning. Draft runs see it once ' +
      'recalculated; processed runs keep what they paid. Emits `pay_component.created`.',
    update: 'Partial; set the other of amount and percentage to null to switch. Emits `pay_component.updated`.',
    delete: 'Emits `pay_component.deleted`; processed runs keep their lines.',
  },
  rules: {
    check(component) {
      const { amount, percentage, from, to, code } = component;
      if ((amount ?? null) === null && (percentage ?? null) === null) {
        throw invalidField('amount', 'give an amount per month, or a percentage');
      }
      if ((amount ?? null) !== null && (percentage ?? null) !== null) {
        throw invalidField('percentage', 'give an amount or a percentage, not both (null clears the other)');
      }
      if (typeof from === 'string' && typeof to === 'string' && to < from)
        throw invalidField('to', 'must not be before from');
      if (typeof code === 'string' && RUN_CODES.includes(code)) {
        throw invalidField('code', `${RUN_CODES.join(' and ')} are the run's own lines`);
      }
    },
    async create(values, rules) {
      await requireNoOverlap(rules, values);
    },
    async update({ before, changes }, rules) {
      if (['code', 'from', 'to'].some((field) => field in changes)) {
        await requireNoOverlap(rules, { ...before, ...changes }, before.id);
      }
    },
  },
  examples: {
    create: (n) => ({
      kind: 'deduction',
      code: `pension_${n}`,
      description: 'Pension contribution',
      percentage: 5,
      from: '2026-01-01',
    }),
    update: { description: 'Pension contribution (employee share)' },
  },
});
