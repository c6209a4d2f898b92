// When an invoice is overdue, in SQL: open, something still due, and its due
// date before the organization's today (in its time zone, as every "today" of
// the service: ../../hr/calendar/today.ts). One expression for the invoice's
// computed `overdue`, the `?overdue=` filter, the worker's sweep and the aging
// report, so they cannot disagree. Pure SQL builders: nothing here reads the
// Invoice type (its computed field is built from them).
import { computed, FIELD_KINDS, type FieldKind } from '../../kit/fields.js';
import { qualifiedColumn } from '../../kit/field-sql.js';
import { todayIn } from '../../hr/calendar/today.js';

/** The time zone of the record's organization, by a correlated lookup of its primary key. */
export const timeZoneOfRecord = (table: string) =>
  `(select o."timeZone" from "Organization" o where o.id = ${qualifiedColumn(table, 'organizationId')})`;

/** The overdue condition over `table`'s columns; `amountDue` is the invoice's own expression (type.ts). */
export function overdueWhen(table: string, amountDue: string, timeZone = timeZoneOfRecord(table)): string {
  return (
    `(${qualifiedColumn(table, 'status')} = 'open' and (${amountDue}) > 0 ` +
    `and ${qualifiedColumn(table, 'dueDate')} < ${todayIn(timeZone)})`
  );
}

/** The computed `overdue` field of an invoice whose amount due is the `amountDue` kind. */
export const overdueKind = (amountDue: FieldKind): FieldKind =>
  computed(FIELD_KINDS.boolean, (table) =>
    overdueWhen(table, amountDue.sql(qualifiedColumn(table, 'amountDue'), table)),
  );

/** The invoice's terms: the days from its issue date to its due date (never stored, so never out of step). */
export const paymentTermsKind: FieldKind = computed(
  FIELD_KINDS.int,
  (table) => `(${qualifiedColumn(table, 'dueDate')} - ${qualifiedColumn(table, 'issueDate')})`,
);
