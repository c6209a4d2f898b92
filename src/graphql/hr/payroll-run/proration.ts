// The gross pay of a period from an annual salary. Each day of the period
// counts against the length of its own calendar year (1/365, or 1/366 in a
// leap year), so a period spanning two years is paid day by day at each
// year's rate; the sum is rounded once to the minor unit, half up. Exact:
// integer arithmetic over the common denominator 365 × 366.
const DAY_MS = 86_400_000;
const COMMON = 365n * 366n;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** The days of the inclusive period (YYYY-MM-DD) in each calendar year it touches. */
export function daysByYear(start: string, end: string): Map<number, number> {
  const days = new Map<number, number>();
  const [first, last] = [Number(start.slice(0, 4)), Number(end.slice(0, 4))];
  for (let year = first; year <= last; year++) {
    const from = Math.max(dayNumber(start), dayNumber(`${String(year).padStart(4, '0')}-01-01`));
    const to = Math.min(dayNumber(end), dayNumber(`${String(year).padStart(4, '0')}-12-31`));
    if (to >= from) days.set(year, to - from + 1);
  }
  return days;
}

/** Inclusive days of the period. */
export const periodDays = (start: string, end: string) => dayNumber(end) - dayNumber(start) + 1;

/** `annualSalary` (integer minor units) prorated over the inclusive period, rounded half up. */
export function grossForPeriod(annualSalary: bigint, start: string, end: string): bigint {
  let weight = 0n; // the period's share of a year, in 1/(365 × 366) units
  for (const [year, days] of daysByYear(start, end)) weight += BigInt(days) * (COMMON / (isLeap(year) ? 366n : 365n));
  return (2n * annualSalary * weight + COMMON) / (2n * COMMON);
}
