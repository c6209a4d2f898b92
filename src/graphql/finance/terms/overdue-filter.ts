// `?overdue=true|false` on the invoices list (GraphQL `overdue: Boolean`): the
// invoices that are (or are not) overdue, by the same condition as their
// `overdue` field. The organization is the list's $1: its time zone is read once.
import { z } from 'zod';
import { filter } from '../../kit/list.js';
import { overdueOf } from './invoice-sql.js';

/** true or false, from a query string ("true", "false") or a GraphQL Boolean. */
const flag = z
  .preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean('must be true or false'),
  )
  // The preprocess step hides the type from z.toJSONSchema: state it for OpenAPI.
  .meta({ type: 'boolean' });

export const overdueFilter = filter(flag, {
  description:
    "true: open invoices with an amount due whose dueDate is before today (the organization's time zone); " +
    'false: every other invoice.',
  graphql: () => Boolean,
  where: (p) => `${overdueOf('Invoice', `(select "timeZone" from "Organization" where id = $1)`)} = ${p}::boolean`,
});
