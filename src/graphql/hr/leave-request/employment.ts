// Leave falls within the employment: one period of employment ("Employment"
// rows, src/graphql/hr/employee/employments.ts) contains every day from `from`
// to `to`. A day before the first period, in a gap between two, or after the
// last one ends is outside it; a period without a start date began before
// anything we know, one without an end date lasts.
import { DomainError } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';

export interface Period {
  startDate: string | null;
  endDate: string | null;
}

const contains = (period: Period, date: string) =>
  (period.startDate === null || period.startDate <= date) && (period.endDate === null || date <= period.endDate);

/**
 * Why leave from `from` to `to` is not within one of the periods (oldest
 * first), naming the field to change: undefined when one period holds it all.
 */
export function outsideEmployment(
  periods: readonly Period[],
  from: string,
  to: string,
  terminated: boolean,
): { field: 'from' | 'to'; message: string } | undefined {
  if (periods.length === 0) return undefined; // no employment recorded: nothing to hold it to
  const holding = periods.find((period) => contains(period, from));
  if (holding && contains(holding, to)) return undefined;
  if (holding) {
    const last = holding === periods.at(-1);
    const ended =
      last && terminated
        ? `The employee was terminated on ${holding.endDate}`
        : `The employment ends on ${holding.endDate}`;
    return { field: 'to', message: `${ended}; leave must end by then` };
  }
  const first = periods[0]!;
  if (first.startDate !== null && from < first.startDate) {
    return { field: 'from', message: `The employment starts on ${first.startDate}; leave cannot start before it` };
  }
  const next = periods.find((period) => period.startDate !== null && period.startDate > from);
  const ended = [...periods].reverse().find((period) => period.endDate !== null && period.endDate < from)!;
  if (next) {
    return {
      field: 'from',
      message: `The employee was not employed between ${ended.endDate} and ${next.startDate}; leave cannot start on ${from}`,
    };
  }
  const who = terminated ? 'The employee was terminated on' : 'The employment ends on';
  return { field: 'from', message: `${who} ${ended.endDate}; leave cannot start after it` };
}

/**
 * 409 naming `from` or `to` unless one period of the employee's employment
 * holds the whole leave. The employee's row is locked (`lock`: 'share' or
 * 'update') until commit, so a concurrent terminate or reinstate waits.
 */
export async function requireWithinEmployment(
  rules: RuleContext,
  employeeId: unknown,
  from: string,
  to: string,
  lock: 'share' | 'update',
): Promise<void> {
  const [employee] = await rules.query<{ status: string }>(
    `select status from "Employee" where id = $1 and "organizationId" = $2 for ${lock}`,
    [employeeId, rules.organizationId],
  );
  if (!employee) return; // an unknown employee: the reference check's 400
  const periods = await rules.query<Period>(
    `select to_char("startDate", 'YYYY-MM-DD') as "startDate", to_char("endDate", 'YYYY-MM-DD') as "endDate"
     from "Employment" where "employeeId" = $1 and "organizationId" = $2 order by seq`,
    [employeeId, rules.organizationId],
  );
  const outside = outsideEmployment(periods, from, to, employee.status === 'terminated');
  if (outside) throw new DomainError('CONFLICT', outside.message, outside.field);
}
