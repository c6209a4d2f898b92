// Payment terms as a number of days (Net 30), shared by the organization's
// default, a contact's own and an invoice's, and the calendar arithmetic of
// a due date: issueDate + days. Dates are YYYY-MM-DD calendar days, counted
// in UTC so that no time zone or daylight saving shift moves them.
import { z } from 'zod';
import { invalidField } from '../../../errors.js';

/** Ten years: longer terms are a typing mistake, not terms (a dueDate may still be given further out). */
export const MAX_PAYMENT_TERMS_DAYS = 3650;
export const DEFAULT_PAYMENT_TERMS_DAYS = 30;

const message = `must be a whole number of days from 0 to ${MAX_PAYMENT_TERMS_DAYS}`;

/** Days from the issue date to the due date: 0 (due on receipt) to 3650. */
export const paymentTermsDays = z.int(message).min(0, message).max(MAX_PAYMENT_TERMS_DAYS, message);

const DAY_MS = 86_400_000;
const LAST_DATE = '9999-12-31';

const epochDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** `date` plus `days`, YYYY-MM-DD; a 400 naming `field` past 9999-12-31 (the API's dates have four digits). */
export function addDays(date: string, days: number, field: string): string {
  const day = epochDay(date) + days;
  if (day > epochDay(LAST_DATE)) throw invalidField(field, `the due date would fall after ${LAST_DATE}`);
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string) => epochDay(to) - epochDay(from);
