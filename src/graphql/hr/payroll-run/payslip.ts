// One employee's payslip for a payroll run's period: pure and exact (bigint
// minor units), from their periods of employment, compensation records,
// approved unpaid leave and pay components (docs/decisions.md, "Payroll: the
// basis"). The rule, stated once:
// - The period is split into its calendar months. In month m (1..12) a
//   compensation of `annual` a year has a monthly amount of
//   round(annual × m / 12) − round(annual × (m − 1) / 12): twelve whole months
//   pay exactly the annual salary, whatever the months' lengths.
// - Each run of consecutive days in a month that the employee is employed at one
//   compensation pays monthly × days / days in the month: a whole month pays the
//   monthly amount exactly; a joiner, a leaver, a raise, a gap between periods
//   of employment or a period that is not a calendar month pay by days.
// - Approved unpaid leave is a negative `earning` line on the same basis
//   (monthly × its days / days in the month), so it reduces the gross.
// - A fixed component (per month) is prorated like the salary by the days it
//   applies inside the employment; a percentage one applies to the gross (a
//   deduction) or to the salary paid, unpaid leave included (an earning), times
//   the share of the employed days it applies on.
// Every line is rounded on its own, half up (a deduction's magnitude half up).
// Each line's description shows its arithmetic in the currency's major units.
import { majorUnits } from '../../kit/major-units.js';
import { byFrom, dateOf, dayNumber, monthsOf, NEVER_AFTER, NEVER_BEFORE, runsOf } from './pay-days.js';

export type PayKind = 'earning' | 'deduction';

export interface EmploymentPeriod {
  /** Null: since before anything recorded. */
  startDate: string | null;
  /** Null: still employed. */
  endDate: string | null;
}

export interface CompensationRecord {
  salary: bigint;
  currency: string;
  /** Null: from the beginning. */
  effectiveFrom: string | null;
}

export interface LeaveSpan {
  from: string;
  to: string;
}

export interface PayComponentRule {
  kind: PayKind;
  code: string;
  description: string;
  /** Per month, in minor units; null for a percentage. */
  amount: bigint | null;
  /** The percentage × 100 (5% is 500, 2.5% 250); null for an amount. */
  basisPoints: bigint | null;
  from: string;
  to: string | null;
}

export interface PayInputs {
  periodStart: string;
  periodEnd: string;
  employments: readonly EmploymentPeriod[];
  /** In any order. */
  compensation: readonly CompensationRecord[];
  /** Approved unpaid leave (non-overlapping). */
  unpaidLeave: readonly LeaveSpan[];
  /** In the order their lines come, earnings and deductions alike. */
  components: readonly PayComponentRule[];
}

export interface PayLine {
  kind: PayKind;
  code: string;
  description: string;
  amount: bigint;
}

export interface Payslip {
  currency: string;
  lines: PayLine[];
  grossAmount: bigint;
  deductionsAmount: bigint;
  netAmount: bigint;
  basis: { daysPaid: number; daysInPeriod: number; compensation: CompensationRecord[] };
}

/**
 * Why someone employed around the period has no payslip: no compensation on
 * any day they were employed in it; employed only after it (a joiner of next
 * month); or paid in two currencies inside it (a currency change mid-period:
 * make the period end the day before).
 */
export const SKIP_REASONS = ['no_compensation', 'starts_after_period', 'currency_changed'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The payslip, the reason there is none, or undefined: not employed in the period nor after it. */
export type PayOutcome = { payslip: Payslip } | { skipped: SkipReason } | undefined;

/** n / d rounded half up, for n >= 0 and d > 0 (exact: 0.5 -> 1, never to even). */
export function roundHalfUp(n: bigint, d: bigint): bigint {
  if (n < 0n) return -roundHalfUp(-n, d);
  return (2n * n + d) / (2n * d);
}

/** Month m's (1..12) share of `annual` with cumulative rounding: the twelve sum to `annual` exactly. */
export function monthlyAmount(annual: bigint, month: number): bigint {
  const m = BigInt(month);
  return roundHalfUp(annual * m, 12n) - roundHalfUp(annual * (m - 1n), 12n);
}

/** An amount as the payslip's reader reads it: 1234567 USD is "12345.67 USD". */
function money(minor: bigint, currency: string): string {
  return `${majorUnits(minor, currency)} ${currency}`;
}

/** 500 -> "5", 250 -> "2.5", 1275 -> "12.75". */
export function percentText(basisPoints: bigint): string {
  const [whole, hundredths] = [basisPoints / 100n, basisPoints % 100n];
  if (hundredths === 0n) return String(whole);
  return `${whole}.${String(hundredths).padStart(2, '0').replace(/0$/, '')}`;
}

const span = (run: { first: number; last: number }) =>
  run.first === run.last ? dateOf(run.first) : `${dateOf(run.first)}..${dateOf(run.last)}`;

/** The payslip of one employee for the period (see the rule above). */
export function computePayslip(inputs: PayInputs): PayOutcome {
  const start = dayNumber(inputs.periodStart);
  const end = dayNumber(inputs.periodEnd);
  const periods = inputs.employments.map((period) => ({
    first: period.startDate === null ? NEVER_BEFORE : dayNumber(period.startDate),
    last: period.endDate === null ? NEVER_AFTER : dayNumber(period.endDate),
  }));
  if (!periods.some((period) => period.first <= end && period.last >= start)) {
    return periods.some((period) => period.first > end) ? { skipped: 'starts_after_period' } : undefined;
  }
  const employed = (day: number) => periods.some((period) => period.first <= day && day <= period.last);
  const records = [...inputs.compensation]
    .map((record) => ({ record, from: record.effectiveFrom === null ? NEVER_BEFORE : dayNumber(record.effectiveFrom) }))
    .sort(byFrom);
  /** The compensation in effect on a day (the latest from it or before), if any. */
  const recordOn = (day: number) => {
    let found: (typeof records)[number] | undefined;
    for (const candidate of records) if (candidate.from <= day) found = candidate;
    return found;
  };
  const leave = inputs.unpaidLeave.map(({ from, to }) => ({ first: dayNumber(from), last: dayNumber(to) }));
  const onLeave = (day: number) => leave.some((span) => span.first <= day && day <= span.last);

  const salaryLines: PayLine[] = [];
  const leaveLines: PayLine[] = [];
  const used = new Set<(typeof records)[number]>();
  let daysPaid = 0;
  const months = monthsOf(inputs.periodStart, inputs.periodEnd).map((month) => {
    const days: number[] = [];
    for (let day = Math.max(start, month.first); day <= Math.min(end, month.last); day++) days.push(day);
    return { month, days };
  });
  for (const { month, days } of months) {
    const paid = (day: number) => (employed(day) ? recordOn(day) : undefined);
    const monthly = (record: (typeof records)[number]) => monthlyAmount(record.record.salary, month.month);
    const dim = BigInt(month.days);
    for (const run of runsOf(days, paid)) {
      used.add(run.key);
      daysPaid += run.days;
      const description =
        run.days === month.days
          ? `Salary ${month.label}: ${money(run.key.record.salary, run.key.record.currency)} a year / 12 (month ${month.month}, rounded cumulatively)`
          : `Salary ${span(run)}: ${money(monthly(run.key), run.key.record.currency)} a month × ${run.days}/${month.days} days`;
      const amount = roundHalfUp(monthly(run.key) * BigInt(run.days), dim);
      salaryLines.push({ kind: 'earning', code: 'salary', description, amount });
    }
    for (const run of runsOf(days, (day) => (onLeave(day) ? paid(day) : undefined))) {
      daysPaid -= run.days;
      leaveLines.push({
        kind: 'earning',
        code: 'unpaid_leave',
        description: `Unpaid leave ${span(run)}: ${money(monthly(run.key), run.key.record.currency)} a month × ${run.days}/${month.days} days`,
        amount: -roundHalfUp(monthly(run.key) * BigInt(run.days), dim),
      });
    }
  }
  if (used.size === 0) return { skipped: 'no_compensation' };
  const currencies = new Set([...used].map((record) => record.record.currency));
  if (currencies.size > 1) return { skipped: 'currency_changed' };
  const currency = [...currencies][0]!;

  const sum = (lines: PayLine[]) => lines.reduce((total, line) => total + line.amount, 0n);
  const salaryPaid = sum(salaryLines) + sum(leaveLines);
  // The employed days (at a compensation) of the period, and each component's among them.
  const paidDays = months.flatMap(({ days }) => days.filter((day) => employed(day) && recordOn(day)));
  const componentDays = (component: PayComponentRule) => {
    const first = dayNumber(component.from);
    const last = component.to === null ? NEVER_AFTER : dayNumber(component.to);
    return (day: number) => first <= day && day <= last;
  };
  const fixedLines = (component: PayComponentRule): PayLine[] =>
    months.flatMap(({ month, days }) => {
      const applies = componentDays(component);
      const count = days.filter((day) => employed(day) && applies(day)).length;
      if (count === 0) return [];
      const whole = count === month.days;
      return [
        {
          kind: component.kind,
          code: component.code,
          description: whole
            ? `${component.description} ${month.label}: ${money(component.amount!, currency)} a month`
            : `${component.description} ${month.label}: ${money(component.amount!, currency)} a month × ${count}/${month.days} days`,
          amount: roundHalfUp(component.amount! * BigInt(count), BigInt(month.days)),
        },
      ];
    });
  const percentageLine = (component: PayComponentRule, base: bigint, of: string): PayLine[] => {
    const applies = componentDays(component);
    const count = paidDays.filter(applies).length;
    if (count === 0) return [];
    const share = count === paidDays.length ? '' : ` × ${count}/${paidDays.length} days`;
    return [
      {
        kind: component.kind,
        code: component.code,
        description: `${component.description}: ${percentText(component.basisPoints!)}% of ${of} ${money(base, currency)}${share}`,
        amount: roundHalfUp(base * component.basisPoints! * BigInt(count), 10_000n * BigInt(paidDays.length)),
      },
    ];
  };
  const earnings = inputs.components.filter((component) => component.kind === 'earning');
  const deductions = inputs.components.filter((component) => component.kind === 'deduction');
  const earningLines = earnings.flatMap((component) =>
    component.amount !== null ? fixedLines(component) : percentageLine(component, salaryPaid, 'the salary paid'),
  );
  const lines = [...salaryLines, ...leaveLines, ...earningLines];
  const grossAmount = sum(lines);
  const deductionLines = deductions.flatMap((component) =>
    component.amount !== null ? fixedLines(component) : percentageLine(component, grossAmount, 'gross'),
  );
  const deductionsAmount = sum(deductionLines);
  const basisRecords = [...used].sort(byFrom).map(({ record }) => record);
  return {
    payslip: {
      currency,
      lines: [...lines, ...deductionLines],
      grossAmount,
      deductionsAmount,
      netAmount: grossAmount - deductionsAmount,
      basis: { daysPaid, daysInPeriod: end - start + 1, compensation: basisRecords },
    },
  };
}
