// A payroll run and its payslips as the payroll pages read them.
import { PERSON_FIELDS, type Person } from './people.js';

export interface PayrollLine {
  kind: 'earning' | 'deduction';
  code: string;
  description: string;
  amount: number;
}

export interface PayrollItem {
  employeeId: string;
  /** Asked only of a viewer who may read people (hr:read). */
  employee?: Person | null;
  currency: string;
  grossAmount: number;
  deductionsAmount: number;
  netAmount: number;
  lines: PayrollLine[];
  basis: { daysPaid: number; daysInPeriod: number };
}

export interface PayrollRun {
  id: string;
  periodStart: string;
  periodEnd: string;
  payDate: string;
  status: 'draft' | 'processed';
  processedAt: string | null;
  createdAt: string;
  items: PayrollItem[];
  skipped: { employeeId: string; employee?: Person | null; reason: string }[];
}

export const ITEM_FIELDS = `employeeId currency grossAmount deductionsAmount netAmount
  lines { kind code description amount } basis { daysPaid daysInPeriod }`;

/** The run's fields, with its people's names for a viewer who may read them (hr:read). */
export function runFields(withPeople: boolean): string {
  const people = withPeople ? `employee { ${PERSON_FIELDS} }` : '';
  return `id periodStart periodEnd payDate status processedAt createdAt
    items { ${ITEM_FIELDS} ${people} } skipped { employeeId reason ${people} }`;
}

export interface Totals {
  currency: string;
  count: number;
  grossAmount: number;
  deductionsAmount: number;
  netAmount: number;
}

/** The payslips' sums per currency (a run pays each employee in their compensation's currency). */
export function totalsOf(items: readonly PayrollItem[]): Totals[] {
  const totals = new Map<string, Totals>();
  for (const item of items) {
    const sum = totals.get(item.currency) ?? {
      currency: item.currency,
      count: 0,
      grossAmount: 0,
      deductionsAmount: 0,
      netAmount: 0,
    };
    sum.count += 1;
    sum.grossAmount += item.grossAmount;
    sum.deductionsAmount += item.deductionsAmount;
    sum.netAmount += item.netAmount;
    totals.set(item.currency, sum);
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Why a run does not pay someone employed around its period, in words. */
export const SKIP_REASONS: Record<string, string> = {
  no_compensation: 'No salary on any day employed in the period',
  starts_after_period: 'Employed only after the period',
  currency_changed: 'Paid in two currencies within the period (end a run the day before the change)',
};
