// Numbers in sequence per organization (INV-000001, CN-000001, …), from a
// counter row that the create's transaction locks (two creates never take the
// same). A client may give a number of its own, even one the counter has not
// reached yet: the counter skips it. Finding the next free number costs one
// index probe when it is free (nearly always), else one query over the
// organization's numbers: never a loop over the numbers clients took, however
// many they took.
import { DomainError } from '../../errors.js';
import type { RuleContext } from './lifecycle.js';

export interface NumberSequence {
  /** What the numbers start with, before the dash: 'INV' makes INV-000001. */
  prefix: string;
  /** The table of the numbered records, and its column holding the number (unique per organization). */
  table: string;
  column?: string;
  /** The counter's table: one row per organization ("organizationId" primary key, last int). */
  counter: string;
  /** The 409's words when the counter has run out (past 2^31 − 1): what the client can do then. */
  exhausted: string;
}

export interface Numbering {
  /** The n-th number: six digits, or more without a leading zero. */
  format(n: number): string;
  /** The next free number of the organization (the counter row stays locked until commit). */
  next(rules: RuleContext): Promise<string>;
}

/** The numbering of a sequence: its numbers' form, and the next free one. */
export function numbering({ prefix, table, column = 'number', counter, exhausted }: NumberSequence): Numbering {
  const format = (n: number) => `${prefix}-${String(n).padStart(6, '0')}`;
  /** format in SQL, over a bigint expression. */
  const formatted = (n: string) =>
    `'${prefix}-' || case when (${n}) < 1000000 then lpad((${n})::text, 6, '0') else (${n})::text end`;
  /** The counter's own form: six digits, or more without a leading zero (up to the counter's int range). */
  const counterForm = `'^${prefix}-([0-9]{6}|[1-9][0-9]{6,9})$'`;
  /** The first free number after `from`, which is taken: one more than a taken number of the counter's form. */
  const firstFreeAfter = `
    select min(taken.n + 1)::int as next from (
      select case when "${column}" ~ ${counterForm} then substring("${column}" from ${prefix.length + 2})::bigint end as n
      from "${table}" where "organizationId" = $1) taken
    where taken.n >= $2 and taken.n + 1 <= 2147483647
      and not exists (select 1 from "${table}" t where t."organizationId" = $1 and t."${column}" = ${formatted('taken.n + 1')})`;

  async function next(rules: RuleContext): Promise<string> {
    const organizationId = rules.organizationId;
    const [row] = await rules.query<{ last: number }>(
      `insert into "${counter}" ("organizationId", last) values ($1, 1)
       on conflict ("organizationId") do update set last = "${counter}".last + 1 returning last`,
      [organizationId],
    );
    const number = format(row!.last);
    const taken = await rules.query(`select 1 from "${table}" where "organizationId" = $1 and "${column}" = $2`, [
      organizationId,
      number,
    ]);
    if (!taken.length) return number;
    const [free] = await rules.query<{ next: number | null }>(firstFreeAfter, [organizationId, row!.last]);
    if (free?.next == null) throw new DomainError('CONFLICT', exhausted, column);
    await rules.query(`update "${counter}" set last = $2 where "organizationId" = $1`, [organizationId, free.next]);
    return format(free.next);
  }

  return { format, next };
}
