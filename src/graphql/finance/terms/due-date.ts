// An invoice's dates under payment terms. The due date is the issue date plus
// the terms: the invoice's own `paymentTermsDays`, else its contact's, else
// the organization's (30 unless set). A dueDate given wins over any default,
// and the invoice's paymentTermsDays then shows the days it leaves
// (dueDate − issueDate): an invoice's terms are always the days between its
// two dates (a computed field, see ../invoice/type.ts), so they cannot
// disagree. Both given and disagreeing is a 400. The issue date defaults to
// the organization's today (its time zone).
import { DomainError, invalidField } from '../../../errors.js';
import { todayIn } from '../../hr/calendar/today.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { Change } from '../../kit/resource.js';
import { addDays, daysBetween } from './days.js';

interface Defaults {
  /** The organization's date today, YYYY-MM-DD. */
  today: string;
  /** The contact's terms, else the organization's. */
  terms: number;
}

/** The defaults, read once and only if a rule needs them (one query). */
function defaultsOf(rules: RuleContext, contactId: unknown): () => Promise<Defaults> {
  let read: Promise<Defaults> | undefined;
  return () =>
    (read ??= rules
      .query<Defaults>(
        `select to_char(${todayIn('o."timeZone"')}, 'YYYY-MM-DD') as today,
           coalesce((select c."paymentTermsDays" from "Contact" c where c.id = $2 and c."organizationId" = o.id),
             o."paymentTermsDays") as terms
         from "Organization" o where o.id = $1`,
        [rules.organizationId, contactId ?? null],
      )
      .then(([row]) => row!));
}

function requireNotBefore(issueDate: string, dueDate: string) {
  if (dueDate < issueDate) {
    throw new DomainError('VALIDATION_ERROR', "'dueDate': must not be before the issueDate", 'dueDate');
  }
}

interface Given {
  issueDate: string;
  dueDate?: string | null;
  paymentTermsDays?: number | null;
}

/** The due date: the one given, else issueDate + the terms given, else + the default terms. */
async function dueDateOf(given: Given, defaultTerms: () => Promise<number>): Promise<string> {
  const { issueDate, dueDate, paymentTermsDays: terms } = given;
  if (dueDate != null) {
    requireNotBefore(issueDate, dueDate);
    const days = daysBetween(issueDate, dueDate);
    if (terms != null && terms !== days) {
      throw invalidField(
        'paymentTermsDays',
        `${terms} days disagree with the dueDate ${dueDate} (${days} days after the issueDate); give one of them`,
      );
    }
    return dueDate;
  }
  if (terms != null) return addDays(issueDate, terms, 'paymentTermsDays');
  return addDays(issueDate, await defaultTerms(), 'issueDate');
}

/** A create's issueDate and dueDate from what it gave (`values`: the input, missing fields null). */
export async function datesOnCreate(values: Record<string, unknown>, rules: RuleContext) {
  const defaults = defaultsOf(rules, values.contactId);
  const issueDate = (values.issueDate as string | null) ?? (await defaults()).today;
  const dueDate = await dueDateOf(
    {
      issueDate,
      dueDate: values.dueDate as string | null,
      paymentTermsDays: values.paymentTermsDays as number | null,
    },
    async () => (await defaults()).terms,
  );
  return { issueDate, dueDate };
}

type Dated = { issueDate: string; dueDate: string; paymentTermsDays: number; contactId: string };

/**
 * An update's dates. null resets a field to its default, as on create: issueDate
 * to today, dueDate and paymentTermsDays to the contact's or organization's
 * terms. A dueDate given (even unchanged) is kept; paymentTermsDays given moves
 * the dueDate; an issueDate moved alone keeps the invoice's terms and moves the
 * dueDate with it. Answers the columns that change (and paymentTermsDays, for
 * the event's previousAttributes).
 */
export async function datesOnUpdate({ before, changes, given = changes }: Change<Dated>, rules: RuleContext) {
  const defaults = defaultsOf(rules, changes.contactId ?? before.contactId);
  const more: Record<string, unknown> = {};
  if (changes.issueDate === null) more.issueDate = (await defaults()).today;
  const issueDate = (more.issueDate ?? changes.issueDate ?? before.issueDate) as string;
  const resets = given.dueDate === null || given.paymentTermsDays === null;
  const termsKept = !resets && given.dueDate === undefined && given.paymentTermsDays === undefined;
  if (termsKept && issueDate === before.issueDate) return more;
  const dueDate = await dueDateOf(
    {
      issueDate,
      dueDate: given.dueDate as string | null | undefined,
      paymentTermsDays: (termsKept ? before.paymentTermsDays : given.paymentTermsDays) as number | null | undefined,
    },
    async () => (await defaults()).terms,
  );
  if (dueDate !== before.dueDate) more.dueDate = dueDate;
  const terms = daysBetween(issueDate, dueDate);
  if (terms !== before.paymentTermsDays) more.paymentTermsDays = terms;
  return more;
}
