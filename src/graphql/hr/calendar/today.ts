// An organization's calendar dates: "today", and the day of an instant, in its
// time zone ("Organization"."timeZone", IANA, default UTC), so that a notice
// ends, a default date falls and a shift belongs to the day its people see.
import type { RuleContext } from '../../kit/lifecycle.js';

type Query = Pick<RuleContext, 'organizationId' | 'query'>;

/** SQL: the date today in `timeZone` (a SQL expression: a column or a subquery of the organization's zone). */
export const todayIn = (timeZone: string) => `(now() at time zone ${timeZone})::date`;

/** The organization's current date, YYYY-MM-DD, at the transaction's time. */
export async function organizationToday(rules: Query): Promise<string> {
  const [row] = await rules.query<{ today: string }>(
    `select to_char(${todayIn('"timeZone"')}, 'YYYY-MM-DD') as today from "Organization" where id = $1`,
    [rules.organizationId],
  );
  return row!.today;
}

/** The organization's calendar date, YYYY-MM-DD, of an instant (an ISO 8601 timestamp). */
export async function organizationDate(rules: Query, instant: string): Promise<string> {
  const [row] = await rules.query<{ day: string }>(
    `select to_char(($2::timestamptz at time zone "timeZone")::date, 'YYYY-MM-DD') as day
     from "Organization" where id = $1`,
    [rules.organizationId, instant],
  );
  return row!.day;
}
