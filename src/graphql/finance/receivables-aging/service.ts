// The receivables aging report, read in one query: each open invoice issued on
// or before asOf contributes its amountDue (the invoice's own expression, see
// ../terms/invoice-sql.ts) as it stands now, in the bucket of its days past due
// at asOf (asOf − dueDate: 0 or less is current). A past asOf ages today's
// balances as of that day; it does not rebuild what was owed then (see
// docs/decisions.md). Sums are exact (numeric in SQL, BigInt here). A contact
// is named as exports name it (its declaration's label).
import type { Principal } from '../../../auth/principal.js';
import { contacts } from '../../crm/contact/index.js';
import { organizationToday } from '../../hr/calendar/today.js';
import { labelOf } from '../../kit/labels.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { namedStatement } from '../../kit/statements.js';
import { amountDueOf } from '../terms/invoice-sql.js';
import type { AgingBuckets, AgingContact, AgingCurrency, ReceivablesAging } from './type.js';

const BUCKETS = {
  current: 'd.late <= 0',
  days1to30: 'd.late between 1 and 30',
  days31to60: 'd.late between 31 and 60',
  days61to90: 'd.late between 61 and 90',
  over90: 'd.late > 90',
} satisfies Record<keyof AgingBuckets, string>;
type BucketName = keyof typeof BUCKETS;
const BUCKET_NAMES = Object.keys(BUCKETS) as BucketName[];

let agingSql: string | undefined;

/** Per currency and contact: the total due and each bucket's, as text (exact). */
function agingQuery(): string {
  agingSql ??= `
    with due as (
      select i.currency, i."contactId", (${amountDueOf('i')})::numeric as due, $2::date - i."dueDate" as late
      from "Invoice" i
      where i."organizationId" = $1 and i.status = 'open' and i."issueDate" <= $2::date)
    select d.currency, d."contactId", ${labelOf(contacts.resource)!.sql('c')} as "contactName", sum(d.due)::text as total,
      ${BUCKET_NAMES.map((name) => `coalesce(sum(d.due) filter (where ${BUCKETS[name]}), 0)::text as "${name}"`).join(', ')}
    from due d join "Contact" c on c.id = d."contactId"
    where d.due > 0
    group by d.currency, d."contactId", c.id
    order by d.currency, "contactName", d."contactId"`;
  return agingSql;
}

type Row = { currency: string; contactId: string; contactName: string; total: string } & Record<BucketName, string>;
type Sums = { total: bigint } & Record<BucketName, bigint>;

const zero = (): Sums => ({ total: 0n, current: 0n, days1to30: 0n, days31to60: 0n, days61to90: 0n, over90: 0n });
const sumsOf = (row: Row): Sums =>
  Object.fromEntries(['total', ...BUCKET_NAMES].map((name) => [name, BigInt(row[name as keyof Row])])) as Sums;

function add(into: Sums, more: Sums) {
  for (const name of ['total', ...BUCKET_NAMES] as (keyof Sums)[]) into[name] += more[name];
}

const publicSums = ({ total, ...buckets }: Sums) => ({
  total: Number(total),
  buckets: Object.fromEntries(BUCKET_NAMES.map((name) => [name, Number(buckets[name])])) as unknown as AgingBuckets,
});

export class ReceivablesAgingService {
  constructor(private readonly db: ServiceDependencies) {}

  /** The report as of `asOf` (default the organization's today). */
  async report(principal: Principal, asOf?: string | null): Promise<ReceivablesAging> {
    const { organizationId } = principal;
    const query = async <R extends object>(text: string, values: unknown[]) =>
      (await this.db.pool.query<R>(text, values)).rows;
    const day = asOf ?? (await organizationToday({ organizationId, query }));
    const { rows } = await this.db.pool.query<Row>(namedStatement(agingQuery(), [organizationId, day]));
    const currencies = new Map<string, { sums: Sums; contacts: AgingContact[] }>();
    for (const row of rows) {
      let currency = currencies.get(row.currency);
      if (!currency) currencies.set(row.currency, (currency = { sums: zero(), contacts: [] }));
      const sums = sumsOf(row);
      add(currency.sums, sums);
      currency.contacts.push({ contactId: row.contactId, contactName: row.contactName, ...publicSums(sums) });
    }
    return {
      asOf: day,
      currencies: [...currencies].map(([code, { sums, contacts }]): AgingCurrency => ({
        currency: code,
        ...publicSums(sums),
        contacts,
      })),
    };
  }
}
