// Payroll runs, declared once (see kit/resource.ts). Particular to them: a
// period of at most 366 days with a pay date not before it, and the items
// (one per active employee with a salary, prorated by proration.ts from the
// later of the period's start and the employee's startDate) written
// with the run in its create's transaction; processing is a lifecycle action.
import { event } from '../../../events/event.js';
import { invalidField } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { payrollRunInput, payrollRunList } from './input.js';
import { grossForPeriod, periodDays } from './proration.js';
import { PayrollRun } from './type.js';

const MAX_PERIOD_DAYS = 366;

interface Payee {
  id: string;
  salary: string | null;
  currency: string | null;
  startDate: string | null;
}

/** The first day of the period the employee is paid for: none when they start after it. */
function firstPaidDay(employee: Payee, run: PayrollRun): string | undefined {
  if (!employee.startDate || employee.startDate <= run.periodStart) return run.periodStart;
  return employee.startDate <= run.periodEnd ? employee.startDate : undefined;
}

/**
 * Writes one item per active employee with a salary who has started by the
 * period's end, paid from their start date when it falls inside the period
 * (their rows locked against deletion until commit), and answers the ids of
 * the others: no salary, or starting after the period.
 */
async function computeItems(run: PayrollRun, rules: RuleContext): Promise<string[]> {
  const employees = await rules.query<Payee>(
    `select id, salary::text as salary, currency, to_char("startDate", 'YYYY-MM-DD') as "startDate" from "Employee"
     where "organizationId" = $1 and status = 'active' order by "createdAt", id for key share`,
    [rules.organizationId],
  );
  const paid = employees.filter((employee) => employee.salary !== null && firstPaidDay(employee, run));
  const gross = paid.map((employee) =>
    grossForPeriod(BigInt(employee.salary!), firstPaidDay(employee, run)!, run.periodEnd),
  );
  if (gross.some((amount) => amount > BigInt(Number.MAX_SAFE_INTEGER))) {
    throw invalidField('periodEnd', `a gross amount over this period would exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  if (paid.length) {
    await rules.query(
      `insert into "PayrollItem" (id, "organizationId", "runId", "employeeId", "grossAmount", currency)
       select item.id, $1, $2, item."employeeId", item.gross::bigint, item.currency
       from unnest($3::text[], $4::text[], $5::text[], $6::text[]) as item(id, "employeeId", gross, currency)`,
      [
        rules.organizationId,
        run.id,
        paid.map(() => newId('payrollItem')),
        paid.map((employee) => employee.id),
        gross.map(String),
        paid.map((employee) => employee.currency),
      ],
    );
  }
  const payees = new Set(paid);
  return employees.filter((employee) => !payees.has(employee)).map((employee) => employee.id);
}

export const payrollRuns = defineResource({
  type: PayrollRun,
  idPrefix: 'pay',
  area: AREAS.hr,
  path: 'payroll-runs',
  names: { one: 'payrollRun', many: 'payrollRuns' },
  input: payrollRunInput,
  list: payrollRunList,
  events: {
    created: event('payroll.created', 'A draft payroll run was created with its items (POST /hr/payroll-runs).'),
    updated: event('payroll.updated', 'A draft payroll run was changed (PUT /hr/payroll-runs/:id).'),
  },
  descriptions: {
    create:
      'Computes one item per active employee with a salary: annual salary × days of the period (inclusive), ' +
      "each day over its own year's length (365 or 366), rounded half up to the minor unit; an employee whose " +
      '`startDate` falls inside the period is paid from that day. Active employees without a salary, or starting ' +
      'after the period, are listed in `skippedEmployeeIds`. Emits `payroll.created` (data.object with the items).',
    update:
      'Only `payDate`, only while draft; the items stay as computed (they do not depend on it). Emits `payroll.updated`.',
  },
  lifecycle: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    actions: {
      process: {
        from: ['draft'],
        to: 'processed',
        description: 'Marks the run processed (stamps `processedAt`); a processed run cannot change.',
        changes: ['processedAt'],
        sets: () => ({ processedAt: NOW }),
        event: event('payroll.processed', 'A payroll run was processed.'),
      },
    },
  },
  rules: {
    check(run) {
      const { periodStart, periodEnd, payDate } = run as Record<string, string | null>;
      if (periodEnd! < periodStart!) throw invalidField('periodEnd', 'must not be before periodStart');
      if (periodDays(periodStart!, periodEnd!) > MAX_PERIOD_DAYS) {
        throw invalidField('periodEnd', `the period must be at most ${MAX_PERIOD_DAYS} days`);
      }
      if (payDate && payDate < periodStart!) throw invalidField('payDate', 'must not be before periodStart');
    },
    async create(values) {
      return { payDate: values.payDate ?? values.periodEnd };
    },
    async update({ before, changes }) {
      if (changes.payDate === null) return { payDate: before.periodEnd };
    },
    async afterCreate(run, rules) {
      return { skippedEmployeeIds: await computeItems(run, rules) };
    },
  },
  examples: {
    // A month from the n-th day of 2026 (every n a valid period), paid the day after.
    create: (n) => {
      const day = (offset: number) => new Date(Date.UTC(2026, 0, n + offset)).toISOString().slice(0, 10);
      return { periodStart: day(0), periodEnd: day(30), payDate: day(31) };
    },
    update: { payDate: '2100-01-01' },
  },
});
