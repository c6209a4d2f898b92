// Working days: the dates an organization works, its working week
// ("Organization"."workingDays", ISO weekdays 1 Monday .. 7 Sunday) less its
// holidays ("Holiday" rows). The core is pure (dates as YYYY-MM-DD strings, a
// set of weekdays, a set of holiday dates) so the rule is tested without a
// database; `workingDaysBetween` loads the organization's calendar for a range.
import type { RuleContext } from '../../kit/lifecycle.js';

type Query = Pick<RuleContext, 'organizationId' | 'query'>;

const DAY_MS = 86_400_000;

/** Milliseconds at midnight UTC of a YYYY-MM-DD date. */
const timeOf = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
const dateOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The date `days` days after `date` (before, when negative). */
export const addDays = (date: string, days: number) => dateOf(timeOf(date) + days * DAY_MS);

/** Its ISO weekday: 1 Monday .. 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(timeOf(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The days from `from` to `to`, both included (none when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((timeOf(to) - timeOf(from)) / DAY_MS) + 1);
}

/** What makes a day a working day: the working week and the holidays. */
export interface WorkingCalendar {
  /** ISO weekdays worked. */
  weekdays: ReadonlySet<number>;
  /** Holiday dates (YYYY-MM-DD): not worked whatever their weekday. */
  holidays: ReadonlySet<string>;
}

/** The working dates from `from` to `to`, both included, in order. */
export function workingDates(from: string, to: string, calendar: WorkingCalendar): string[] {
  const dates: string[] = [];
  const end = timeOf(to);
  let weekday = isoWeekday(from);
  for (let time = timeOf(from); time <= end; time += DAY_MS) {
    const date = dateOf(time);
    if (calendar.weekdays.has(weekday) && !calendar.holidays.has(date)) dates.push(date);
    weekday = weekday === 7 ? 1 : weekday + 1;
  }
  return dates;
}

/** How many working days from `from` to `to`, both included. */
export const countWorkingDays = (from: string, to: string, calendar: WorkingCalendar) =>
  workingDates(from, to, calendar).length;

/** The organization's working week and its holidays from `from` to `to`. */
export async function loadCalendar(rules: Query, from: string, to: string): Promise<WorkingCalendar> {
  const [row] = await rules.query<{ workingDays: number[]; holidays: string[] }>(
    `select o."workingDays",
       array(select to_char(h.date, 'YYYY-MM-DD') from "Holiday" h
             where h."organizationId" = o.id and h.date between $2::date and $3::date) as holidays
     from "Organization" o where o.id = $1`,
    [rules.organizationId, from, to],
  );
  return { weekdays: new Set(row?.workingDays ?? []), holidays: new Set(row?.holidays ?? []) };
}

/** The organization's working dates from `from` to `to`, both included, and how many. */
export async function workingDaysBetween(
  rules: Query,
  from: string,
  to: string,
): Promise<{ dates: string[]; count: number }> {
  const dates = workingDates(from, to, await loadCalendar(rules, from, to));
  return { dates, count: dates.length };
}
