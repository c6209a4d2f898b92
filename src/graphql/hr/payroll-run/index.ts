// Payroll runs, declared once (see kit/resource.ts). Particular to them: a
// period of at most 366 days with a pay date not before it, one run per period
// (a create overlapping another run of the organization, whatever its status,
// is a 409 naming periodStart; creates queue on an advisory lock of the
// organization, so two cannot both pass), and the payslips (items.ts, by the
// rule of payslip.ts) written with the run in its create's transaction, and
// again by recalculate while a draft. Processing is a lifecycle action; a
// draft may be deleted, a processed run neither deleted nor recalculated.
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { payrollRunInput, payrollRunList } from './input.js';
import { computeItems } from './items.js';
import { periodDays } from './pay-days.js';
import { PayrollRun } from './type.js';

const MAX_PERIOD_DAYS = 366;

/** The first key of the advisory lock that queues an organization's run creates: "pay" + 1. */
const RUN_CREATE_LOCK = 0x70617901;

/** 409 naming periodStart when another run of the organization covers a day of this period. */
async function requireOwnPeriod(values: Record<string, unknown>, rules: RuleContext) {
  await rules.query(`select pg_advisory_xact_lock($1::int, hashtext($2))`, [RUN_CREATE_LOCK, rules.organizationId]);
  const [overlap] = await rules.query<{ id: string; status: string; periodStart: string; periodEnd: string }>(
    `select id, status, to_char("periodStart", 'YYYY-MM-DD') as "periodStart", to_char("periodEnd", 'YYYY-MM-DD') as "periodEnd"
     from "PayrollRun" where "organizationId" = $1 and "periodStart" <= $3::date and "periodEnd" >= $2::date
     order by "periodStart" limit 1`,
    [rules.organizationId, values.periodStart, values.periodEnd],
  );
  if (overlap) {
    throw new DomainError(
      'CONFLICT',
      `The period overlaps payroll run ${overlap.id} (${overlap.periodStart} to ${overlap.periodEnd}, ${overlap.status}): ` +
        'one run per period (delete or recalculate a draft instead)',
      'periodStart',
    );
  }
}

export const payrollRuns = defineResource({
  type: PayrollRun,
  idPrefix: 'pay',
  area: AREAS.payroll,
  path: 'payroll-runs',
  names: { one: 'payrollRun', many: 'payrollRuns' },
  input: payrollRunInput,
  list: payrollRunList,
  operations: { delete: true },
  events: {
    created: event('payroll.created', 'A draft payroll run was created with its payslips (POST /hr/payroll-runs).'),
    updated: event('payroll.updated', 'A draft payroll run was changed (PUT /hr/payroll-runs/:id).'),
    deleted: event('payroll.deleted', 'A draft payroll run was deleted (DELETE /hr/payroll-runs/:id).'),
  },
  conflicts: { create: 'The period overlaps another payroll run of the organization' },
  descriptions: {
    create:
      'Computes one payslip (`items`) per employee with a period of employment overlapping the period, whatever ' +
      'their status now (a leaver is paid to their end date; the gaps between periods are not paid). Each calendar ' +
      'month of the period pays, per compensation, its monthly amount (annual / 12, rounded cumulatively so that ' +
      'twelve months pay the annual salary exactly) × days employed / days in the month; approved unpaid leave is ' +
      'a negative `unpaid_leave` earning on the same basis; pay components follow. Those employed around the ' +
      'period whom it does not pay are in `skipped` with why (and `skippedEmployeeIds`). A period overlapping ' +
      'another run is a 409. Emits `payroll.created` (data.object with the items).',
    update:
      'Only `payDate`, only while draft; the items stay as computed (they do not depend on it). Emits `payroll.updated`.',
    delete: 'Deletes a draft run and its payslips (a processed run is a 409). Emits `payroll.deleted`.',
  },
  lifecycle: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    deletableIn: ['draft'],
    actions: {
      process: {
        from: ['draft'],
        to: 'processed',
        description: 'Marks the run processed (stamps `processedAt`); a processed run cannot change.',
        changes: ['processedAt'],
        sets: () => ({ processedAt: NOW }),
        event: event('payroll.processed', 'A payroll run was processed.'),
      },
      recalculate: {
        from: ['draft'],
        to: 'draft',
        description:
          'Computes the payslips of a draft again from what holds now: employees and their periods of employment, ' +
          'compensation, approved unpaid leave and pay components changed since.',
        sets: async (_input, run, rules) => {
          await rules.query(`delete from "PayrollItem" where "runId" = $1 and "organizationId" = $2`, [
            run.id,
            rules.organizationId,
          ]);
          return computeItems(run, rules);
        },
        event: event('payroll.recalculated', "A draft payroll run's payslips were computed again."),
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
    async create(values, rules) {
      await requireOwnPeriod(values, rules);
      return { payDate: values.payDate ?? values.periodEnd };
    },
    async update({ before, changes }) {
      if (changes.payDate === null) return { payDate: before.periodEnd };
    },
    async afterCreate(run, rules) {
      return computeItems(run, rules);
    },
  },
  examples: {
    // The n-th calendar month from January 2040 (each n its own period), paid on the 1st of the next.
    create: (n) => {
      const day = (month: number, date: number) => new Date(Date.UTC(2040, month, date)).toISOString().slice(0, 10);
      return { periodStart: day(n - 1, 1), periodEnd: day(n, 0), payDate: day(n, 1) };
    },
    update: { payDate: '2999-12-31' },
  },
});
