// An invoice's amount columns in its create's or edit's transaction: its lines
// priced (amounts.ts) with the tax rates they name, looked up only when a line
// names some, and the rates it uses recorded (../tax-rate/lines.ts).
import type { RuleContext } from '../../kit/lifecycle.js';
import { ratesOfLines, recordRatesUsed } from '../tax-rate/lines.js';
import { priceLines, type LineInput, type PricedLines } from './amounts.js';

/** The invoice's columns from its priced lines. */
const amountColumns = ({ lines, subtotal, discountTotal, taxTotal, taxes, total }: PricedLines) => ({
  lines: JSON.stringify(lines),
  subtotal: String(subtotal),
  discountTotal: String(discountTotal),
  taxTotal: String(taxTotal),
  taxes: JSON.stringify(taxes),
  total: String(total),
});

/**
 * Prices the lines with the rates they name (no query when none) and records
 * the rates the invoice uses (`previous`: those it used before an edit, which
 * may stay on it though deactivated since).
 */
export async function priceInvoice(rules: RuleContext, invoiceId: string, lines: LineInput[], previous: string[] = []) {
  const priced = priceLines(lines, await ratesOfLines(rules, lines, new Set(previous)));
  await recordRatesUsed(
    rules,
    invoiceId,
    priced.taxes.map((tax) => tax.taxRateId),
    previous,
  );
  return amountColumns(priced);
}
