// Calendar dates as the HR pages handle them: YYYY-MM-DD strings and YYYY-MM
// months, worked out in UTC so the viewer's own time zone never shifts a day;
// "today" is the organization's (its time zone), as the API counts days.

const DAY_MS = 86_400_000;
const timeOf = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
const dateOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Today's date in an IANA time zone (the organization's), YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(now);
  } catch {
    return dateOf(now.getTime()); // an unknown zone: UTC, as the API's default
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export const addDays = (date: string, days: number) => dateOf(timeOf(date) + days * DAY_MS);

/** Its ISO weekday: 1 Monday .. 7 Sunday (as the organization's workingDays count them). */
export function isoWeekday(date: string): number {
  const day = new Date(timeOf(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** A month given as YYYY-MM, or undefined when the text is not one. */
export function parseMonth(text: string | null | undefined): string | undefined {
  if (!text || !/^\d{4}-(0[1-9]|1[0-2])$/.test(text)) return undefined;
  return text;
}

export const monthOf = (date: string) => date.slice(0, 7);

/** The month `count` months after `month` (before, when negative). */
export function addMonths(month: string, count: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export const firstDay = (month: string) => `${month}-01`;
export const lastDay = (month: string) => addDays(firstDay(addMonths(month, 1)), -1);

/** Every date of the month, in order. */
export function daysOf(month: string): string[] {
  const days: string[] = [];
  for (let date = firstDay(month), end = lastDay(month); date <= end; date = addDays(date, 1)) days.push(date);
  return days;
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' });
const weekdayLongFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});

/** `2026-11` → "November 2026". */
export const monthName = (month: string) => monthFormat.format(new Date(timeOf(firstDay(month))));
/** `2026-11-02` → "Mon". */
export const weekdayName = (date: string) => weekdayFormat.format(new Date(timeOf(date)));
/** `2026-11-02` → "Monday 2 November" (the words a screen reader says for a day column). */
export const dayName = (date: string) => weekdayLongFormat.format(new Date(timeOf(date)));
