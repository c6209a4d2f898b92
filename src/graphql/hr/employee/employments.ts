// An employee's periods of employment ("Employment" rows, seq 1, 2, ...): the
// first opens with the hire, terminate closes the latest, reinstate opens a new
// one. The employee's own startDate and endDate are those of the latest period;
// payroll pays the days inside every period (the gaps are not paid).
import { ObjectType } from 'type-graphql';
import { Public } from '../../kit/fields.js';
import type { RuleContext } from '../../kit/lifecycle.js';

@ObjectType({
  simpleResolvers: true,
  description: 'One period of employment: from a hire or reinstatement to its end.',
})
export class Employment {
  @Public.date({ nullable: true, description: 'Its first day; null when the hire date was not recorded.' })
  startDate!: string | null;

  @Public.date({ nullable: true, description: 'Its last day; null while it lasts.' })
  endDate!: string | null;
}

/** The employee's periods, oldest first, as a JSON array (the Employee's `employments` field). */
export const employmentsSql = (table: string) => `(select coalesce(jsonb_agg(jsonb_build_object(
    'startDate', to_char(e."startDate", 'YYYY-MM-DD'), 'endDate', to_char(e."endDate", 'YYYY-MM-DD'))
    order by e.seq), '[]'::jsonb)
  from "Employment" e where e."employeeId" = "${table}".id)`;

/** Opens the employee's next period from `startDate` (the first, at the hire). */
export async function openEmployment(rules: RuleContext, employeeId: string, startDate: string | null) {
  await rules.query(
    `insert into "Employment" ("organizationId", "employeeId", seq, "startDate")
     select $1, $2, coalesce(max(seq), 0) + 1, $3::date from "Employment" where "employeeId" = $2`,
    [rules.organizationId, employeeId, startDate],
    { prepared: true },
  );
}

/** Sets a column of the employee's latest period (a corrected startDate, the end set by terminate). */
export async function setLatestEmployment(
  rules: RuleContext,
  employeeId: string,
  column: 'startDate' | 'endDate',
  value: string | null,
) {
  await rules.query(
    `update "Employment" set "${column}" = $3::date
     where "employeeId" = $2 and "organizationId" = $1
       and seq = (select max(seq) from "Employment" where "employeeId" = $2)`,
    [rules.organizationId, employeeId, value],
  );
}

/**
 * Whether one period of the employee's employment covers every day from
 * `from` to `to` (YYYY-MM-DD): a day in a gap between periods is outside.
 */
export async function employedThroughout(
  rules: Pick<RuleContext, 'organizationId' | 'query'>,
  employeeId: unknown,
  from: string,
  to: string,
): Promise<boolean> {
  const rows = await rules.query(
    `select 1 from "Employment" where "employeeId" = $2 and "organizationId" = $1
       and ("startDate" is null or "startDate" <= $3::date) and ("endDate" is null or "endDate" >= $4::date)
     limit 1`,
    [rules.organizationId, employeeId, from, to],
  );
  return rows.length > 0;
}
