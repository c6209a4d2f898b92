// A run's payslips, written in its create's (or recalculate's) transaction:
// what the organization records for the period is read in a few statements (the
// employees with a period of employment not ended before it, their periods,
// compensation, approved unpaid leave and pay components), each employee's
// payslip worked out by payslip.ts, and the items inserted in one statement.
import { invalidField } from '../../../errors.js';
import { newId } from '../../../ids.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import {
  computePayslip,
  type CompensationRecord,
  type EmploymentPeriod,
  type LeaveSpan,
  type PayComponentRule,
  type Payslip,
  type SkipReason,
} from './payslip.js';

interface Period {
  id: string;
  periodStart: string;
  periodEnd: string;
}

const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD') as "${column.replace(/.*"(\w+)"$/, '$1')}"`;

/** Rows of `rows` by their employeeId. */
function byEmployee<R extends { employeeId: string }>(rows: R[]): Map<string, R[]> {
  const grouped = new Map<string, R[]>();
  for (const row of rows) grouped.set(row.employeeId, [...(grouped.get(row.employeeId) ?? []), row]);
  return grouped;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const safe = (amount: bigint) => amount <= SAFE && amount >= -SAFE;

/** The payslip's amounts as JSON numbers, or a 400 when one is past what a JSON number carries exactly. */
function publicPayslip(payslip: Payslip) {
  const amounts = [
    payslip.grossAmount,
    payslip.deductionsAmount,
    payslip.netAmount,
    ...payslip.lines.map((l) => l.amount),
  ];
  if (!amounts.every(safe)) {
    throw invalidField('periodEnd', `an amount over this period would exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  return {
    lines: payslip.lines.map((line) => ({ ...line, amount: Number(line.amount) })),
    basis: {
      ...payslip.basis,
      compensation: payslip.basis.compensation.map((record) => ({ ...record, salary: Number(record.salary) })),
    },
  };
}

/**
 * Writes the run's payslips and answers its skipped employees (the columns
 * `skippedEmployeeIds` and `skipped`, the latter as JSON). The employees read
 * are locked against deletion (KEY SHARE) until commit.
 */
export async function computeItems(run: Period, rules: RuleContext) {
  const { organizationId } = rules;
  const { periodStart, periodEnd } = run;
  const employees = await rules.query<{ id: string }>(
    `select e.id from "Employee" e where e."organizationId" = $1
       and exists (select 1 from "Employment" m where m."employeeId" = e.id and coalesce(m."endDate" >= $2::date, true))
     order by e."createdAt", e.id for key share`,
    [organizationId, periodStart],
  );
  const ids = employees.map((employee) => employee.id);
  if (!ids.length) return { skippedEmployeeIds: [], skipped: '[]' };
  const employments = await rules.query<EmploymentPeriod & { employeeId: string }>(
    `select "employeeId", ${day('"startDate"')}, ${day('"endDate"')} from "Employment"
       where "organizationId" = $1 and "employeeId" = any($2) order by "employeeId", seq`,
    [organizationId, ids],
  );
  const compensation = await rules.query<{
    employeeId: string;
    salary: string;
    currency: string;
    effectiveFrom: string | null;
  }>(
    `select "employeeId", salary::text as salary, currency, ${day('"effectiveFrom"')} from "Compensation"
       where "organizationId" = $1 and "employeeId" = any($2) and coalesce("effectiveFrom" <= $3::date, true)`,
    [organizationId, ids, periodEnd],
  );
  const leave = await rules.query<LeaveSpan & { employeeId: string }>(
    `select "employeeId", ${day('"from"')}, ${day('"to"')} from "LeaveRequest"
       where "organizationId" = $1 and "employeeId" = any($2) and type = 'unpaid' and status = 'approved'
         and "from" <= $4::date and "to" >= $3::date`,
    [organizationId, ids, periodStart, periodEnd],
  );
  const components = await rules.query<{
    employeeId: string;
    kind: PayComponentRule['kind'];
    code: string;
    description: string;
    amount: string | null;
    basisPoints: string | null;
    from: string;
    to: string | null;
  }>(
    `select "employeeId", kind, code, description, amount::text as amount,
         (percentage * 100)::bigint::text as "basisPoints", ${day('"from"')}, ${day('"to"')}
       from "PayComponent" where "organizationId" = $1 and "employeeId" = any($2)
         and "from" <= $4::date and coalesce("to" >= $3::date, true)
       order by "createdAt", id`,
    [organizationId, ids, periodStart, periodEnd],
  );
  const [periodsOf, compensationOf, leaveOf, componentsOf] = [
    byEmployee(employments),
    byEmployee(compensation),
    byEmployee(leave),
    byEmployee(components),
  ];
  const paid: { employeeId: string; payslip: Payslip }[] = [];
  const skipped: { employeeId: string; reason: SkipReason }[] = [];
  for (const employeeId of ids) {
    const outcome = computePayslip({
      periodStart,
      periodEnd,
      employments: periodsOf.get(employeeId) ?? [],
      compensation: (compensationOf.get(employeeId) ?? []).map((record): CompensationRecord => ({
        currency: record.currency,
        effectiveFrom: record.effectiveFrom,
        salary: BigInt(record.salary),
      })),
      unpaidLeave: leaveOf.get(employeeId) ?? [],
      components: (componentsOf.get(employeeId) ?? []).map((component): PayComponentRule => ({
        ...component,
        amount: component.amount === null ? null : BigInt(component.amount),
        basisPoints: component.basisPoints === null ? null : BigInt(component.basisPoints),
      })),
    });
    if (outcome && 'payslip' in outcome) paid.push({ employeeId, payslip: outcome.payslip });
    else if (outcome) skipped.push({ employeeId, reason: outcome.skipped });
  }
  if (paid.length) {
    const shown = paid.map(({ payslip }) => publicPayslip(payslip));
    await rules.query(
      `insert into "PayrollItem" (id, "organizationId", "runId", "employeeId", currency, "grossAmount",
         "deductionsAmount", "netAmount", lines, basis)
       select item.id, $1, $2, item."employeeId", item.currency, item.gross::bigint, item.deductions::bigint,
         item.net::bigint, item.lines::jsonb, item.basis::jsonb
       from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
         as item(id, "employeeId", currency, gross, deductions, net, lines, basis)`,
      [
        organizationId,
        run.id,
        paid.map(() => newId('payrollItem')),
        paid.map((item) => item.employeeId),
        paid.map((item) => item.payslip.currency),
        paid.map((item) => String(item.payslip.grossAmount)),
        paid.map((item) => String(item.payslip.deductionsAmount)),
        paid.map((item) => String(item.payslip.netAmount)),
        shown.map((item) => JSON.stringify(item.lines)),
        shown.map((item) => JSON.stringify(item.basis)),
      ],
    );
  }
  return { skippedEmployeeIds: skipped.map((skip) => skip.employeeId), skipped: JSON.stringify(skipped) };
}
