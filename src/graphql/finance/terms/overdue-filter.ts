// `?overdue=true|false` on the invoices list (GraphQL `overdue: Boolean`): the
// invoices that are (or are not) overdue, by the same condition as their
// `overdue` field. The organization is the list's $1: its time zone is read once.
import { filter } from '../../kit/list.js';
import { booleanFlag } from '../../kit/values.js';
import { overdueOf } from './invoice-sql.js';

export const overdueFilter = filter(booleanFlag, {
  description:
    "true: open invoices with an amount due whose dueDate is before today (the organization's time zone); " +
    'false: every other invoice.',
  where: (p) => `${overdueOf('Invoice', `(select "timeZone" from "Organization" where id = $1)`)} = ${p}::boolean`,
});
