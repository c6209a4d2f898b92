// The leave balance rules, pure (dates as YYYY-MM-DD, no database): what an
// employee is entitled to in a calendar year under a leave policy, what carries
// over from the year before, and how a request's working days split between
// years. service.ts loads what they need; docs/decisions.md ("Time off") says why.
//
// - Entitled days accrue over the days employed: yearly, daysPerYear × the days
//   of the year inside a period of employment / the days of the year; monthly,
//   a twelfth of daysPerYear for each month begun by the date asked about, each
//   month × the days of it employed / its days. Rounded to the nearest whole
//   day, halves up. A joiner on 1 July 2026 with 20 days a year: 20 × 184 / 365
//   = 10.08, so 10.
// - Carried over into a year: what was left of the year before (its entitled
//   days, with what was carried into it, less the days taken in it), at most the
//   carryOverDays of that year's policy, never below zero; counted year by year
//   from the employee's first year (that of the first period's start, else of
//   the employee's record), or the policy's fromYear when later.
// - Remaining = entitled (accrued + carried over) − taken (approved). Pending
//   requests are shown (requestedDays) but do not lower it: approving does.
import { addDays, countWorkingDays, daysBetween, type WorkingCalendar } from '../calendar/working-days.js';
import type { Period } from '../leave-request/employment.js';
import type { Accrual, PolicyType } from '../leave-policy/type.js';

export interface PolicyTerms {
  type: PolicyType;
  fromYear: number | null;
  daysPerYear: number;
  accrual: Accrual;
  carryOverDays: number;
  allowNegative: boolean;
}

/** The policy of a type in force in `year`: the one with the latest fromYear on or before it (null first). */
export function policyFor<P extends PolicyTerms>(policies: readonly P[], year: number): P | undefined {
  let chosen: P | undefined;
  for (const policy of policies) {
    if (policy.fromYear !== null && policy.fromYear > year) continue;
    if (!chosen || (policy.fromYear ?? -Infinity) > (chosen.fromYear ?? -Infinity)) chosen = policy;
  }
  return chosen;
}

const yearStart = (year: number) => `${String(year).padStart(4, '0')}-01-01`;
const yearEnd = (year: number) => `${String(year).padStart(4, '0')}-12-31`;
export const yearOf = (date: string) => Number(date.slice(0, 4));

/** The days from `from` to `to` (inclusive) inside one of the periods (which do not overlap). */
export function employedDays(periods: readonly Period[], from: string, to: string): number {
  let days = 0;
  for (const { startDate, endDate } of periods) {
    const start = startDate === null || startDate < from ? from : startDate;
    const end = endDate === null || endDate > to ? to : endDate;
    days += daysBetween(start, end);
  }
  return days;
}

/** Rounded to the nearest whole number, halves up (a float's 9.4999… of an exact 9.5 too). */
const roundHalfUp = (value: number) => Math.floor(value + 0.5 + 1e-9);

/** The first day of month `month` (1..12) of `year`, and its last. */
function monthRange(year: number, month: number): [string, string] {
  const first = `${yearStart(year).slice(0, 5)}${String(month).padStart(2, '0')}-01`;
  const next = month === 12 ? yearStart(year + 1) : `${first.slice(0, 5)}${String(month + 1).padStart(2, '0')}-01`;
  return [first, addDays(next, -1)];
}

/**
 * The days accrued in `year` by `asOf` (a date of that year; the whole year
 * once it is over: its 31 December), for the days of it the employee was employed.
 */
export function accruedDays(policy: PolicyTerms, periods: readonly Period[], year: number, asOf: string): number {
  if (policy.accrual === 'yearly') {
    const [from, to] = [yearStart(year), yearEnd(year)];
    return roundHalfUp((policy.daysPerYear * employedDays(periods, from, to)) / daysBetween(from, to));
  }
  const months = yearOf(asOf) > year ? 12 : yearOf(asOf) < year ? 0 : Number(asOf.slice(5, 7));
  let share = 0;
  for (let month = 1; month <= months; month++) {
    const [from, to] = monthRange(year, month);
    share += employedDays(periods, from, to) / daysBetween(from, to);
  }
  return roundHalfUp((policy.daysPerYear * share) / 12);
}

/** A request's working days in each calendar year it touches. */
export interface RequestDays {
  from: string;
  to: string;
  /** Its stored working days. */
  days: number;
}

/**
 * Its days by year: all in its year when from and to share one; else each
 * year's part counted with `calendar` (the calendar now), the last year taking
 * what remains of its stored days, so the parts add up to them.
 */
export function daysByYear(request: RequestDays, calendar?: WorkingCalendar): Map<number, number> {
  const [first, last] = [yearOf(request.from), yearOf(request.to)];
  if (first === last || !calendar) return new Map([[first, request.days]]);
  const parts = new Map<number, number>();
  let left = request.days;
  for (let year = first; year < last; year++) {
    const from = year === first ? request.from : yearStart(year);
    const part = Math.min(left, countWorkingDays(from, yearEnd(year), calendar));
    parts.set(year, part);
    left -= part;
  }
  parts.set(last, left);
  return parts;
}

export interface BalanceInput {
  /** The policies of one type, any years. */
  policies: readonly PolicyTerms[];
  periods: readonly Period[];
  /** The first year the employee may have accrued in: its first period's start, else its record's creation. */
  firstYear: number;
  /** Approved days of this type by year. */
  taken: ReadonlyMap<number, number>;
  /** Pending (requested) days of this type by year. */
  requested: ReadonlyMap<number, number>;
}

export interface Balance {
  type: PolicyType;
  year: number;
  entitledDays: number;
  carriedOverDays: number;
  takenDays: number;
  requestedDays: number;
  remainingDays: number;
  /** Whether its policy lets an approval take it below zero. */
  allowNegative: boolean;
}

const MAX_YEARS_WALKED = 100;

/** What carries into `year`: each earlier year's leftover, walked from the first year. */
export function carriedInto(input: BalanceInput, year: number): number {
  const start = Math.max(
    input.firstYear,
    Math.min(...input.policies.map((policy) => policy.fromYear ?? -Infinity)),
    // A century back is as good as forever (at most carryOverDays carry), and bounds the walk.
    year - MAX_YEARS_WALKED,
  );
  let carried = 0;
  for (let y = start; y < year; y++) {
    const policy = policyFor(input.policies, y);
    if (!policy) {
      carried = 0;
      continue;
    }
    const left = accruedDays(policy, input.periods, y, yearEnd(y)) + carried - (input.taken.get(y) ?? 0);
    carried = Math.max(0, Math.min(policy.carryOverDays, left));
  }
  return carried;
}

/** The balance of `year` as of `asOf` (a date of that year); undefined when no policy is in force then. */
export function balanceOf(input: BalanceInput, year: number, asOf: string): Balance | undefined {
  const policy = policyFor(input.policies, year);
  if (!policy) return undefined;
  const carriedOverDays = carriedInto(input, year);
  const entitledDays = accruedDays(policy, input.periods, year, asOf) + carriedOverDays;
  const takenDays = input.taken.get(year) ?? 0;
  return {
    type: policy.type,
    year,
    entitledDays,
    carriedOverDays,
    takenDays,
    requestedDays: input.requested.get(year) ?? 0,
    remainingDays: entitledDays - takenDays,
    allowNegative: policy.allowNegative,
  };
}
