// The compensation an employee shows (Employee.salary and currency): the record
// in effect today in the organization's time zone, the latest whose
// effectiveFrom is today or before (null counting as the earliest), or, when
// none is yet (an employee starting later), the first to come. Read in SQL with
// the employee, so the answer, lists and events show it alike, and a raise
// effective tomorrow shows from tomorrow without anyone writing anything.
import { todayIn } from '../calendar/today.js';

/** The SQL ordering of an employee's records (`c`) that puts the one shown on `today` first. */
export const shownFirst = (today: string) => `coalesce(c."effectiveFrom" <= ${today}, true) desc,
    case when coalesce(c."effectiveFrom" <= ${today}, true) then c."effectiveFrom" end desc nulls last,
    c."effectiveFrom" asc`;

/** A column of the compensation the employee of `table` shows: a correlated subquery for its select list. */
export const currentCompensationSql = (column: 'salary' | 'currency') => (table: string) =>
  `(select ${column === 'salary' ? 'c.salary::float8' : 'c.currency'} from "Compensation" c
    cross join (select ${todayIn('o."timeZone"')} as today
      from "Organization" o where o.id = "${table}"."organizationId") t
    where c."employeeId" = "${table}".id order by ${shownFirst('t.today')} limit 1)`;
