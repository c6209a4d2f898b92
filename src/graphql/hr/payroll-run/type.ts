// The PayrollRun as every transport shows it (GraphQL, REST, OpenAPI, events),
// with its items (payslips: lines, totals and their basis) read by the same
// select list as its columns.
import { ObjectType } from 'type-graphql';
import { objectList, objectOf, oneOf, Public, storedObjectList } from '../../kit/fields.js';
import { SKIP_REASONS } from './payslip.js';

export const PAYROLL_RUN_STATUSES = ['draft', 'processed'] as const;
export const PAYROLL_LINE_KINDS = ['earning', 'deduction'] as const;

@ObjectType({ simpleResolvers: true, description: 'One line of a payslip.' })
export class PayrollLine {
  @Public.of(oneOf(PAYROLL_LINE_KINDS), {
    description: 'earning: part of the gross (unpaid leave is a negative one); deduction: taken from it.',
  })
  kind!: (typeof PAYROLL_LINE_KINDS)[number];

  @Public.text({ description: "salary, unpaid_leave, or a pay component's code." })
  code!: string;

  @Public.text({ description: 'What it pays for and how it was worked out (days, rate, percentage).' })
  description!: string;

  @Public.money({ description: 'Integer minor units, rounded half up on its own; negative for unpaid leave.' })
  amount!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A compensation record a payslip was worked out from.' })
export class PayrollCompensation {
  @Public.money({ description: 'Integer minor units per year.' })
  salary!: number;

  @Public.text({ description: 'ISO 4217 code.' })
  currency!: string;

  @Public.date({ nullable: true, description: 'Null: in effect from the beginning.' })
  effectiveFrom!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'What a payslip was worked out from.' })
export class PayrollBasis {
  @Public.int({ description: 'Days of the period employed at a compensation, less approved unpaid leave days.' })
  daysPaid!: number;

  @Public.int({ description: "The period's days (inclusive)." })
  daysInPeriod!: number;

  @Public.of(objectList(PayrollCompensation), { description: 'The compensation records used, oldest first.' })
  compensation!: PayrollCompensation[];
}

@ObjectType({ simpleResolvers: true, description: "One employee's payslip in a payroll run." })
export class PayrollItem {
  @Public.id()
  employeeId!: string;

  @Public.text({ description: 'ISO 4217 code of every amount of the payslip: its compensation currency.' })
  currency!: string;

  @Public.money({ description: 'Integer minor units: the sum of the earning lines.' })
  grossAmount!: number;

  @Public.money({ description: 'Integer minor units: the sum of the deduction lines.' })
  deductionsAmount!: number;

  @Public.money({ description: 'Integer minor units: grossAmount − deductionsAmount.' })
  netAmount!: number;

  @Public.of(objectList(PayrollLine), {
    description: 'The salary (by month and compensation), unpaid leave, then earning and deduction components.',
  })
  lines!: PayrollLine[];

  @Public.of(objectOf(PayrollBasis), { description: 'Days paid, days in the period, the compensation used.' })
  basis!: PayrollBasis;
}

@ObjectType({ simpleResolvers: true, description: 'Someone employed around the period whom the run does not pay.' })
export class PayrollSkip {
  @Public.id()
  employeeId!: string;

  @Public.of(oneOf(SKIP_REASONS), {
    description:
      'no_compensation: no salary on any day employed in the period; starts_after_period: employed only after ' +
      'it; currency_changed: paid in two currencies inside it (end a run the day before the change).',
  })
  reason!: (typeof SKIP_REASONS)[number];
}

/** A payroll item's public object, built by PostgreSQL from its row `i`. */
export const itemJson = `jsonb_build_object('employeeId', i."employeeId", 'currency', i.currency,
    'grossAmount', i."grossAmount"::float8, 'deductionsAmount', i."deductionsAmount"::float8,
    'netAmount', i."netAmount"::float8, 'lines', i.lines, 'basis', i.basis)`;

// In the order they were computed: the employees' order (createdAt, then id).
const items = (table: string) => `(select coalesce(jsonb_agg(${itemJson} order by i."createdAt", i.id), '[]'::jsonb)
  from "PayrollItem" i where i."runId" = "${table}".id)`;

@ObjectType({ simpleResolvers: true, description: 'The pay of the employees for one period: one payslip each.' })
export class PayrollRun {
  @Public.id()
  id!: string;

  @Public.date({ description: 'First day of the period; no other run of the organization covers any of its days.' })
  periodStart!: string;

  @Public.date({ description: 'Last day of the period (inclusive).' })
  periodEnd!: string;

  @Public.date({ description: 'Default periodEnd; not before periodStart.' })
  payDate!: string;

  @Public.of(oneOf(PAYROLL_RUN_STATUSES), { description: 'draft until the process action; then processed.' })
  status!: (typeof PAYROLL_RUN_STATUSES)[number];

  @Public.of(objectList(PayrollItem, items), {
    description:
      'One payslip per employee employed in the period at a compensation, whatever their status now; ' +
      'computed at create and by recalculate.',
  })
  items!: PayrollItem[];

  @Public.idList({ description: 'The employees of `skipped`, in the same order.' })
  skippedEmployeeIds!: string[];

  @Public.of(storedObjectList(PayrollSkip), {
    description: 'Each employee employed around the period whom it does not pay, with why.',
  })
  skipped!: PayrollSkip[];

  @Public.timestamp({ nullable: true, description: 'Set by the process action.' })
  processedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
