// The tax rates an invoice's lines name: looked up for pricing (only when a line
// names some, so an untaxed invoice costs no query), and recorded in
// InvoiceTaxRate, whose foreign key keeps a rate in use from being deleted.
import { invalidField } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { TaxRateTerms } from '../invoice/amounts.js';

interface LineRates {
  taxRateIds?: readonly string[] | null;
}

/** Each rate any line names, once, in order of first mention. */
export const namedRateIds = (lines: readonly LineRates[]) => [
  ...new Set(lines.flatMap((line) => line.taxRateIds ?? [])),
];

/**
 * The rates the lines name, by id: each one of the organization (else a 400
 * naming `lines.<n>.taxRateIds`) and active unless among `kept` (the rates the
 * invoice already used: deactivating a rate does not lock a draft that has it).
 * Locked (KEY SHARE) until commit, so a concurrent delete waits and then sees
 * the use. No query when no line names a rate.
 */
export async function ratesOfLines(
  rules: RuleContext,
  lines: readonly LineRates[],
  kept: ReadonlySet<string> = new Set(),
): Promise<Map<string, TaxRateTerms>> {
  const ids = namedRateIds(lines);
  if (!ids.length) return new Map();
  const rows = await rules.query<TaxRateTerms & { active: boolean }>(
    `select id, name, trim_scale(percentage)::text as percentage, inclusive, active
     from "TaxRate" where "organizationId" = $1 and id = any($2) for key share`,
    [rules.organizationId, ids],
  );
  const found = new Map(rows.map((row) => [row.id, row]));
  lines.forEach((line, i) => {
    for (const id of line.taxRateIds ?? []) {
      const rate = found.get(id);
      if (!rate) throw invalidField(`lines.${i}.taxRateIds`, `no tax rate ${id} in the organization`);
      if (!rate.active && !kept.has(id)) {
        throw invalidField(`lines.${i}.taxRateIds`, `the tax rate ${id} is inactive: it cannot be put on a line`);
      }
    }
  });
  return new Map(rows.map(({ id, name, percentage, inclusive }) => [id, { id, name, percentage, inclusive }]));
}

/**
 * Records which rates the invoice uses now (`previous`: those it used before):
 * the rows of rates it dropped go, new ones come. Nothing to do, no statement.
 */
export async function recordRatesUsed(
  rules: RuleContext,
  invoiceId: string,
  used: readonly string[],
  previous: readonly string[] = [],
): Promise<void> {
  const dropped = previous.filter((id) => !used.includes(id));
  const added = used.filter((id) => !previous.includes(id));
  if (dropped.length) {
    await rules.query(`delete from "InvoiceTaxRate" where "invoiceId" = $1 and "taxRateId" = any($2)`, [
      invoiceId,
      dropped,
    ]);
  }
  if (added.length) {
    await rules.query(
      `insert into "InvoiceTaxRate" ("organizationId", "invoiceId", "taxRateId")
       select $1, $2, unnest($3::text[]) on conflict do nothing`,
      [rules.organizationId, invoiceId, added],
    );
  }
}
