// "Today" for an organization: the calendar date in its time zone
// ("Organization"."timeZone", IANA, default UTC), so that a notice ends, and a
// default date falls, on the day its people see.
import type { RuleContext } from '../../kit/lifecycle.js';

type Query = Pick<RuleContext, 'organizationId' | 'query'>;

/** The organization's current date, YYYY-MM-DD, at the transaction's time. */
export async function organizationToday(rules: Query): Promise<string> {
  const [row] = await rules.query<{ today: string }>(
    `select to_char((now() at time zone "timeZone")::date, 'YYYY-MM-DD') as today from "Organization" where id = $1`,
    [rules.organizationId],
  );
  return row!.today;
}
