// The payslip's calendar, exact: dates as day numbers (days since 1970-01-01,
// UTC), the calendar months a period touches, and runs of consecutive days that
// share something (an employment at one compensation, a leave). Pure.
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** The YYYY-MM-DD date of a day number. */
export const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Inclusive days from start to end (YYYY-MM-DD). */
export const periodDays = (start: string, end: string) => dayNumber(end) - dayNumber(start) + 1;

export interface Month {
  /** 1..12 */
  month: number;
  /** YYYY-MM */
  label: string;
  first: number;
  last: number;
  days: number;
}

/** The calendar months the inclusive period [start, end] touches, in order. */
export function monthsOf(start: string, end: string): Month[] {
  const months: Month[] = [];
  let year = Number(start.slice(0, 4));
  let month = Number(start.slice(5, 7));
  const last = dayNumber(end);
  for (;;) {
    const first = Date.UTC(year, month - 1, 1) / DAY_MS;
    if (first > last) return months;
    const next = Date.UTC(year, month, 1) / DAY_MS;
    const label = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    months.push({ month, label, first, last: next - 1, days: next - first });
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
}

export const NEVER_BEFORE = Number.NEGATIVE_INFINITY;
export const NEVER_AFTER = Number.POSITIVE_INFINITY;

/** The days (each a day number) of a run of consecutive days that share something. */
export interface DayRun<K> {
  key: K;
  first: number;
  last: number;
  days: number;
}

/** Oldest first; a record from the beginning (-Infinity) first of all. */
export const byFrom = (a: { from: number }, b: { from: number }) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0);

/** Consecutive days with the same key (undefined keys end a run and start none). */
export function runsOf<K>(days: number[], keyOf: (day: number) => K | undefined): DayRun<K>[] {
  const runs: DayRun<K>[] = [];
  let current: DayRun<K> | undefined;
  for (const day of days) {
    const key = keyOf(day);
    if (key !== undefined && current && current.key === key && current.last === day - 1) {
      current.last = day;
      current.days++;
    } else if (key !== undefined) {
      current = { key, first: day, last: day, days: 1 };
      runs.push(current);
    } else {
      current = undefined;
    }
  }
  return runs;
}
