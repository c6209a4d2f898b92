// The amounts of a document's lines (an invoice's; a credit note's lines are
// priced alike), computed by the service, never taken from the client. Pure: the
// tax rates come in as data (../tax-rate/lines.ts looks them up). Exact: BigInt
// throughout, quantities as thousandths, percentages as ten-thousandths of a
// percent; every rounding is half up to the minor unit, per line
// (docs/decisions.md, "Taxes and discounts"). Per line:
//   gross    = quantity × unitAmount
//   discount = gross × discountPercent / 100, or discountAmount (at most gross)
//   amount   = gross − discount                      (includes inclusive taxes)
//   each inclusive tax = amount × rate / (100 + Σ inclusive rates of the line)
//   taxable  = amount − Σ inclusive taxes            (the net amount every rate applies to)
//   each exclusive tax = taxable × rate / 100        (not compounded)
// Document: subtotal = Σ gross, discountTotal = Σ discount, taxTotal = Σ every
// tax, taxes = per rate Σ taxable and Σ tax, total = subtotal − discountTotal +
// Σ exclusive taxes.
// The dashboard's invoice editor bundles this very file to show these totals as
// you type: it imports nothing but dependency-free modules (keep it so).
import { invalidField } from '../../../errors.js';
import { canonicalPercentage, HUNDRED_PERCENT, scaledPercentage } from '../percentage-scale.js';

/** What pricing needs of a tax rate. */
export interface TaxRateTerms {
  id: string;
  name: string;
  /** Decimal string, at most 4 decimals. */
  percentage: string;
  inclusive: boolean;
}

/** One rate's tax on a line, or summed over a document's lines. */
export interface TaxAmount {
  taxRateId: string;
  name: string;
  percentage: string;
  inclusive: boolean;
  taxableAmount: number;
  amount: number;
}

export interface LineInput {
  description: string;
  quantity: number;
  unitAmount: number;
  discountPercent?: string | null;
  discountAmount?: number | null;
  taxRateIds?: readonly string[] | null;
  /** The computed fields of a line sent back as read: accepted only at their computed values. */
  discount?: number | null;
  amount?: number | null;
  taxes?: readonly TaxAmount[] | null;
}

/** A line as stored and shown. */
export interface Line {
  description: string;
  quantity: number;
  unitAmount: number;
  discountPercent: string | null;
  discountAmount: number | null;
  discount: number;
  amount: number;
  taxRateIds: string[];
  taxes: TaxAmount[];
}

export interface PricedLines {
  lines: Line[];
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  /** Per rate, in the order the lines first name them. */
  taxes: TaxAmount[];
  total: number;
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** The quantity in thousandths: 1.5 is 1500 (the input allows at most 3 decimals). */
export const thousandths = (quantity: number) => BigInt(Math.round(quantity * 1000));

/** n / d rounded half up (n ≥ 0, d > 0). */
const halfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

const sum = (values: Iterable<bigint>) => {
  let total = 0n;
  for (const value of values) total += value;
  return total;
};

/** quantity × unitAmount, rounded half up to the minor unit. */
export function lineAmount(quantity: number, unitAmount: number): bigint {
  return halfUp(thousandths(quantity) * BigInt(unitAmount), 1000n);
}

function lineDiscount(line: LineInput, gross: bigint, i: number): bigint {
  if (line.discountPercent != null && line.discountAmount != null) {
    throw invalidField(`lines.${i}.discountAmount`, 'give discountPercent or discountAmount, not both');
  }
  if (line.discountPercent != null) return halfUp(gross * scaledPercentage(line.discountPercent), HUNDRED_PERCENT);
  if (line.discountAmount == null) return 0n;
  const discount = BigInt(line.discountAmount);
  if (discount > gross) {
    throw invalidField(`lines.${i}.discountAmount`, `must be at most the line's quantity × unitAmount (${gross})`);
  }
  return discount;
}

interface LineTax {
  rate: TaxRateTerms;
  taxable: bigint;
  tax: bigint;
}

function lineTaxes(amount: bigint, rates: TaxRateTerms[], i: number): LineTax[] {
  const inclusiveSum = sum(rates.filter((rate) => rate.inclusive).map((rate) => scaledPercentage(rate.percentage)));
  const inclusiveTax = (rate: TaxRateTerms) =>
    halfUp(amount * scaledPercentage(rate.percentage), HUNDRED_PERCENT + inclusiveSum);
  const taxable = amount - sum(rates.filter((rate) => rate.inclusive).map(inclusiveTax));
  // Only rates far from any real tax (several inclusive ones near 1000 %) on a line of a few minor units.
  if (taxable < 0n) {
    throw invalidField(`lines.${i}.taxRateIds`, "the inclusive taxes, each rounded, would exceed the line's amount");
  }
  return rates.map((rate) => ({
    rate,
    taxable,
    tax: rate.inclusive ? inclusiveTax(rate) : halfUp(taxable * scaledPercentage(rate.percentage), HUNDRED_PERCENT),
  }));
}

const taxAmount = (rate: TaxRateTerms, taxable: bigint, tax: bigint): TaxAmount => ({
  taxRateId: rate.id,
  name: rate.name,
  percentage: canonicalPercentage(rate.percentage),
  inclusive: rate.inclusive,
  taxableAmount: Number(taxable),
  amount: Number(tax),
});

/**
 * Given taxes equal the computed ones in what is computed (rate, percentage,
 * inclusive, taxable amount, tax); the name is the rate's label, which may
 * have been renamed since the line was read.
 */
const sameTaxes = (given: readonly TaxAmount[], computed: TaxAmount[]) =>
  given.length === computed.length &&
  given.every(
    (tax, k) =>
      tax.taxRateId === computed[k]!.taxRateId &&
      tax.percentage === computed[k]!.percentage &&
      tax.inclusive === computed[k]!.inclusive &&
      tax.taxableAmount === computed[k]!.taxableAmount &&
      tax.amount === computed[k]!.amount,
  );

/** 400 naming `lines.<i>.<field>` when a computed field was given at another value than computed. */
function requireComputed(line: LineInput, priced: Line, i: number) {
  for (const field of ['discount', 'amount'] as const) {
    const given = line[field];
    if (given != null && given !== priced[field]) {
      const how = field === 'amount' ? 'quantity × unitAmount − discount' : 'from discountPercent or discountAmount';
      throw invalidField(`lines.${i}.${field}`, `is computed (${how}: ${priced[field]}); send that or leave it out`);
    }
  }
  if (line.taxes != null && !sameTaxes(line.taxes, priced.taxes)) {
    throw invalidField(`lines.${i}.taxes`, 'are computed from taxRateIds; send them as read or leave them out');
  }
}

/**
 * The lines priced with the rates they name (`ratesById` holds every one of
 * them), and the document's totals. 400 naming the field on a discount over the
 * line, a rate not given, a computed field given at another value, and on
 * `lines` when an amount would pass 2^53 − 1.
 */
export function priceLines(lines: readonly LineInput[], ratesById: ReadonlyMap<string, TaxRateTerms>): PricedLines {
  let subtotal = 0n;
  let discountTotal = 0n;
  let exclusiveTotal = 0n;
  const byRate = new Map<string, { rate: TaxRateTerms; taxable: bigint; tax: bigint }>();
  const priced = lines.map((line, i): Line => {
    const gross = lineAmount(line.quantity, line.unitAmount);
    const discount = lineDiscount(line, gross, i);
    const amount = gross - discount;
    const taxRateIds = [...(line.taxRateIds ?? [])];
    const rates = taxRateIds.map((id) => {
      const rate = ratesById.get(id);
      if (!rate) throw invalidField(`lines.${i}.taxRateIds`, `no tax rate ${id} in the organization`);
      return rate;
    });
    const taxes = lineTaxes(amount, rates, i);
    subtotal += gross;
    discountTotal += discount;
    for (const { rate, taxable, tax } of taxes) {
      if (!rate.inclusive) exclusiveTotal += tax;
      const summed = byRate.get(rate.id) ?? { rate, taxable: 0n, tax: 0n };
      byRate.set(rate.id, { rate, taxable: summed.taxable + taxable, tax: summed.tax + tax });
    }
    return {
      description: line.description,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      discountPercent: line.discountPercent == null ? null : canonicalPercentage(line.discountPercent),
      discountAmount: line.discountAmount ?? null,
      discount: Number(discount),
      amount: Number(amount),
      taxRateIds,
      taxes: taxes.map(({ rate, taxable, tax }) => taxAmount(rate, taxable, tax)),
    };
  });
  const taxTotal = sum([...byRate.values()].map(({ tax }) => tax));
  const total = subtotal - discountTotal + exclusiveTotal;
  const largest = [subtotal, total, taxTotal, ...[...byRate.values()].map(({ taxable }) => taxable)];
  if (largest.some((value) => value > MAX)) {
    throw invalidField('lines', `the total would exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  // Once every amount is known to be exact as a Number.
  lines.forEach((line, i) => requireComputed(line, priced[i]!, i));
  return {
    lines: priced,
    subtotal: Number(subtotal),
    discountTotal: Number(discountTotal),
    taxTotal: Number(taxTotal),
    taxes: [...byRate.values()].map(({ rate, taxable, tax }) => taxAmount(rate, taxable, tax)),
    total: Number(total),
  };
}
