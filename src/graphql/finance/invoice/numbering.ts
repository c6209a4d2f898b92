// Invoice numbers: INV-000001, … per organization, from a counter row that the
// create's transaction locks (two creates never take the same). A client may give
// a number of its own, even one the counter has not reached yet: the counter skips
// it. Finding the next free number costs one index probe when it is free (nearly
// always), else one query over the organization's numbers: never a loop over the
// numbers clients took, however many they took.
import { DomainError } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';

export const formatInvoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;

/** formatInvoiceNumber in SQL, over a bigint expression. */
const formatted = (n: string) =>
  `'INV-' || case when (${n}) < 1000000 then lpad((${n})::text, 6, '0') else (${n})::text end`;

/** The counter's own form: six digits, or more without a leading zero (up to the counter's int range). */
const COUNTER_FORM = `'^INV-([0-9]{6}|[1-9][0-9]{6,9})$'`;

/** The first free number after `from`, which is taken: one more than a taken number of the counter's form. */
const FIRST_FREE_AFTER = `
  select min(taken.n + 1)::int as next from (
    select case when number ~ ${COUNTER_FORM} then substring(number from 5)::bigint end as n
    from "Invoice" where "organizationId" = $1) taken
  where taken.n >= $2 and taken.n + 1 <= 2147483647
    and not exists (select 1 from "Invoice" i where i."organizationId" = $1 and i.number = ${formatted('taken.n + 1')})`;

/** The next free number of the organization (the counter row stays locked until commit). */
export async function nextInvoiceNumber(rules: RuleContext): Promise<string> {
  const organizationId = rules.organizationId;
  const [counter] = await rules.query<{ last: number }>(
    `insert into "InvoiceCounter" ("organizationId", last) values ($1, 1)
     on conflict ("organizationId") do update set last = "InvoiceCounter".last + 1 returning last`,
    [organizationId],
  );
  const number = formatInvoiceNumber(counter!.last);
  const taken = await rules.query(`select 1 from "Invoice" where "organizationId" = $1 and number = $2`, [
    organizationId,
    number,
  ]);
  if (!taken.length) return number;
  const [free] = await rules.query<{ next: number | null }>(FIRST_FREE_AFTER, [organizationId, counter!.last]);
  if (free?.next == null) {
    throw new DomainError('CONFLICT', 'No invoice number is left to assign: give the invoice a number', 'number');
  }
  await rules.query(`update "InvoiceCounter" set last = $2 where "organizationId" = $1`, [organizationId, free.next]);
  return formatInvoiceNumber(free.next);
}
