// An employee's salary as their compensation history keeps it: the rules the
// employee's create and PUT call (Employee.salary and currency are not columns;
// they show the record in effect, current.ts). Each record written here raises
// its compensation event, made by the employee change's actor.
import { declaredResources } from '../../kit/declared.js';
import { sqlSelectOf } from '../../kit/field-sql.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { previousAttributes } from '../../kit/records.js';
import type { Resource } from '../../kit/resource.js';
import { insertRecordFromRule, updateRecordFromRule } from '../../kit/store.js';
import { organizationToday } from '../calendar/today.js';
import { shownFirst } from './current.js';
import { Compensation } from './type.js';

// Read when a rule runs: the compensation declaration imports the employees', whose rules import this.
const compensations = () => declaredResources().get('compensation') as Resource<Compensation>;

const columns = () => sqlSelectOf(Compensation, 'c');

interface Pay {
  salary?: unknown;
  currency?: unknown;
  startDate?: unknown;
}

/** A hire with a salary: its first record, effective from the startDate (null: from the beginning). */
export async function recordHireCompensation(rules: RuleContext, employeeId: string, values: Pay): Promise<void> {
  if (values.salary === null || values.salary === undefined) return;
  const resource = compensations();
  await insertRecordFromRule(rules, resource, {
    values: { employeeId, salary: values.salary, currency: values.currency, effectiveFrom: values.startDate ?? null },
    events: [{ type: resource.events!.created!.type }],
  });
}

/**
 * A PUT of the employee's salary or currency (the employee's row is locked):
 * a change effective today in the organization's time zone, or a correction of
 * the record it replaces when that one is effective today or not yet in effect
 * (an employee starting later: their first salary, corrected before they start,
 * must not be overtaken by it). Records after today stay (a raise planned).
 */
export async function recordCompensationChange(
  rules: RuleContext,
  employee: { id: string; salary: number | null; currency: string | null },
  changes: Pay,
): Promise<void> {
  if (!('salary' in changes) && !('currency' in changes)) return;
  const salary = 'salary' in changes ? changes.salary : employee.salary;
  const currency = 'currency' in changes ? changes.currency : employee.currency;
  if (salary === null || salary === undefined) return; // nothing to record (the employee's check refuses a lone currency)
  const resource = compensations();
  const today = await organizationToday(rules);
  const [shown] = await rules.query<Compensation>(
    `select ${columns()} from "Compensation" c where c."employeeId" = $1 and c."organizationId" = $2
     order by ${shownFirst('$3::date')} limit 1 for update`,
    [employee.id, rules.organizationId, today],
  );
  if (shown && shown.effectiveFrom !== null && shown.effectiveFrom >= today) {
    await updateRecordFromRule(rules, resource, {
      id: shown.id,
      changes: { salary, currency },
      events: [
        { type: resource.events!.updated!.type, previousAttributes: previousAttributes(shown, ['salary', 'currency']) },
      ],
    });
    return;
  }
  await insertRecordFromRule(rules, resource, {
    values: { employeeId: employee.id, salary, currency, effectiveFrom: today },
    events: [{ type: resource.events!.created!.type }],
  });
}

/**
 * A corrected startDate moves the first record with it when that record was
 * effective from the old startDate (the hire's) and no other record is on or
 * before the new one; null makes it effective from the beginning.
 */
export async function moveHireCompensation(
  rules: RuleContext,
  employeeId: string,
  from: string | null,
  to: string | null,
): Promise<void> {
  if (from === null || from === to) return;
  const [first, second] = await rules.query<Compensation>(
    `select ${columns()} from "Compensation" c where c."employeeId" = $1 and c."organizationId" = $2
     order by c."effectiveFrom" asc nulls first limit 2 for update`,
    [employeeId, rules.organizationId],
  );
  if (!first || first.effectiveFrom !== from) return;
  if (
    to !== null &&
    second?.effectiveFrom !== undefined &&
    second.effectiveFrom !== null &&
    second.effectiveFrom <= to
  ) {
    return;
  }
  const resource = compensations();
  await updateRecordFromRule(rules, resource, {
    id: first.id,
    changes: { effectiveFrom: to },
    events: [
      { type: resource.events!.updated!.type, previousAttributes: previousAttributes(first, ['effectiveFrom']) },
    ],
  });
}
