// Compensation, declared once (see kit/resource.ts): an employee's salary from
// a date on, the history payroll runs prorate across. Particular to it: one
// record per employee and day (409 naming effectiveFrom; the employee's row is
// locked first, so two records for one day cannot both pass). The employee's
// own create and PUT write records too (salary.ts); GET
// /hr/employees/:id/compensation answers the history in order (history.ts).
import { event } from '../../../events/event.js';
import { DomainError } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { employees } from '../employee/index.js';
import { compensationInput, compensationList } from './input.js';
import { Compensation } from './type.js';

/** 409 unless the employee has no other record effective from that day; locks the employee's row first. */
async function requireFreeDay(rules: RuleContext, employeeId: unknown, effectiveFrom: unknown, except?: string) {
  const [employee] = await rules.query(
    `select 1 from "Employee" where id = $1 and "organizationId" = $2 for no key update`,
    [employeeId, rules.organizationId],
  );
  if (!employee) return; // not the organization's: the reference check's 400
  const [taken] = await rules.query<{ id: string }>(
    `select id from "Compensation" where "employeeId" = $1 and "effectiveFrom" is not distinct from $2::date
       and id <> $3`,
    [employeeId, effectiveFrom, except ?? ''],
  );
  if (taken) {
    throw new DomainError(
      'CONFLICT',
      `The employee already has a compensation effective from ${String(effectiveFrom ?? 'the beginning')} (${taken.id}); change that one`,
      'effectiveFrom',
    );
  }
}

export const compensations = defineResource({
  type: Compensation,
  idPrefix: 'cmp',
  area: AREAS.payroll,
  path: 'compensation',
  names: { one: 'compensation', many: 'compensations' },
  noun: ['compensation record', 'compensation records'],
  input: compensationInput,
  list: compensationList,
  operations: { delete: true },
  references: {
    employeeId: {
      target: employees,
      onDelete: 'cascade',
      inverse: { name: 'compensations', description: "The employee's compensation records, oldest recorded first." },
    },
  },
  events: {
    created: event(
      'compensation.created',
      "A salary from a date on was recorded (POST /hr/compensation, or an employee's salary given or changed).",
    ),
    updated: event('compensation.updated', 'A compensation record was corrected (PUT /hr/compensation/:id).'),
    deleted: event('compensation.deleted', 'A compensation record was deleted (DELETE /hr/compensation/:id).'),
  },
  conflicts: {
    create: 'The employee already has a compensation effective from that day',
    update: 'The employee already has a compensation effective from that day',
  },
  descriptions: {
    list: "Oldest first (createdAt, then id) unless `sort` names a field; `GET /hr/employees/:id/compensation` answers one employee's history by effectiveFrom.",
    create:
      'Records a salary effective from `effectiveFrom` until the next record of the employee. The employee shows ' +
      "the record in effect today in the organization's time zone (or, before any is, the first to come); " +
      'payroll runs prorate across a change inside their period. Emits `compensation.created`.',
    update:
      'Corrects a record (salary, currency, effectiveFrom); draft payroll runs see it once recalculated, processed ones keep what they paid. Emits `compensation.updated`.',
    delete: 'Deletes a mistaken record: the one before it stays in effect in its place. Emits `compensation.deleted`.',
  },
  rules: {
    async create(values, rules) {
      await requireFreeDay(rules, values.employeeId, values.effectiveFrom);
    },
    async update({ before, changes }, rules) {
      if ('effectiveFrom' in changes) await requireFreeDay(rules, before.employeeId, changes.effectiveFrom, before.id);
    },
  },
  examples: {
    // A raise on a day of 2027 for each n (the example employee is hired in 2020 with a salary).
    create: (n) => ({
      salary: 9_500_000,
      currency: 'USD',
      effectiveFrom: new Date(Date.UTC(2027, 0, n)).toISOString().slice(0, 10),
    }),
    update: { salary: 9_600_000 },
  },
});
