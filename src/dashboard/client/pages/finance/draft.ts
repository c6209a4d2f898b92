// An invoice's (or credit note's) lines as typed in the editor, and their
// amounts priced by the server's own code (src/graphql/finance/invoice/amounts.ts,
// bundled): what the editor shows as you type is what the server will compute,
// rounding and refusals included. Money is typed in major units (`50.00`),
// quantities and percentages as decimals; a text that is no number is refused
// here, beside its field, with the field name the server would use.
import { DomainError } from '../../../../errors.js';
import {
  priceLines,
  type Line,
  type LineInput,
  type PricedLines,
  type TaxRateTerms,
} from '../../../../graphql/finance/invoice/amounts.js';
import { DECIMAL_PERCENTAGE } from '../../../../graphql/finance/percentage-scale.js';
import { fromMinorUnits, toMinorUnits } from '../data/money.js';

export type { PricedLines, TaxRateTerms };

export type DiscountKind = 'none' | 'percent' | 'amount';

/** One line as its inputs hold it: text, as typed. */
export interface DraftLine {
  description: string;
  quantity: string;
  /** Major units: `50.00`. */
  unitPrice: string;
  discountKind: DiscountKind;
  /** A percent (`10`) or major units (`5.00`), by discountKind. */
  discount: string;
  taxRateIds: string[];
}

export const emptyLine = (): DraftLine => ({
  description: '',
  quantity: '1',
  unitPrice: '',
  discountKind: 'none',
  discount: '',
  taxRateIds: [],
});

/** A line as read (an invoice's, to edit it or to credit it) as the editor holds it. */
export function draftOf(line: Line, currency: string): DraftLine {
  const kind: DiscountKind = line.discountPercent != null ? 'percent' : line.discountAmount != null ? 'amount' : 'none';
  return {
    description: line.description,
    quantity: String(line.quantity),
    unitPrice: fromMinorUnits(line.unitAmount, currency),
    discountKind: kind,
    discount:
      kind === 'percent'
        ? line.discountPercent!
        : kind === 'amount'
          ? fromMinorUnits(line.discountAmount!, currency)
          : '',
    taxRateIds: [...line.taxRateIds],
  };
}

/** Field name (as the server names it: `lines.0.quantity`) → message. */
export type FieldErrors = Record<string, string>;

const NUMBER = /^\d+(\.\d+)?$/;
const normalized = (text: string) => text.replace(/[\s_]/g, '').replace(',', '.');

/** The quantity as the API takes it: positive, at most 3 decimals. */
function quantityOf(text: string): number | string {
  const value = normalized(text);
  if (!NUMBER.test(value) || Number(value) <= 0) return 'must be a positive number, e.g. 2 or 1.5';
  if (!/^\d+(\.\d{1,3})?$/.test(value)) return 'must have at most 3 decimals';
  return Number(value);
}

/** Money typed in major units as minor units, 0 or more. */
function moneyOf(text: string, currency: string): number | string {
  const amount = toMinorUnits(text, currency);
  if (amount === undefined || amount < 0) return 'must be an amount, e.g. 50.00';
  if (!Number.isSafeInteger(amount)) return 'is too large';
  return amount;
}

function percentOf(text: string): string | { error: string } {
  const value = normalized(text);
  const error = { error: 'must be a percent above 0 and at most 100, with at most 4 decimals, e.g. 10 or 12.5' };
  if (!DECIMAL_PERCENTAGE.test(value) || Number(value) <= 0 || Number(value) > 100) return error;
  return value;
}

/**
 * The lines as the API's input (`lines` of createInvoice, createCreditNote), or
 * the fields that are not numbers yet.
 */
export function lineInputs(
  lines: readonly DraftLine[],
  currency: string,
): { inputs?: LineInput[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const inputs = lines.map((line, i): LineInput => {
    const field = (name: string) => `lines.${i}.${name}`;
    const quantity = quantityOf(line.quantity);
    if (typeof quantity === 'string') errors[field('quantity')] = quantity;
    const unitAmount = moneyOf(line.unitPrice, currency);
    if (typeof unitAmount === 'string') errors[field('unitAmount')] = unitAmount;
    const input: LineInput = {
      description: line.description.trim(),
      quantity: typeof quantity === 'number' ? quantity : 0,
      unitAmount: typeof unitAmount === 'number' ? unitAmount : 0,
      taxRateIds: line.taxRateIds,
    };
    if (line.discountKind === 'percent') {
      const percent = percentOf(line.discount);
      if (typeof percent === 'string') input.discountPercent = percent;
      else errors[field('discountPercent')] = percent.error;
    } else if (line.discountKind === 'amount') {
      const amount = moneyOf(line.discount, currency);
      if (typeof amount === 'number') input.discountAmount = amount;
      else errors[field('discountAmount')] = amount;
    }
    return input;
  });
  return Object.keys(errors).length ? { errors } : { inputs, errors };
}

/** The server's words without the field it names (shown beside that field): `'lines.0.x': must …` → `must …`. */
export const withoutFieldName = (message: string, field: string | undefined) =>
  field && message.startsWith(`'${field}': `) ? message.slice(field.length + 4) : message;

export interface Priced {
  /** The lines as the API takes them, when every field is a number. */
  inputs?: LineInput[];
  /** Their amounts and totals, when the server's pricing accepts them too. */
  priced?: PricedLines;
  errors: FieldErrors;
}

/** The lines priced as the server will price them, with the rates they may name. */
export function priceDraft(lines: readonly DraftLine[], currency: string, rates: readonly TaxRateTerms[]): Priced {
  const { inputs, errors } = lineInputs(lines, currency);
  if (!inputs) return { errors };
  try {
    return { inputs, priced: priceLines(inputs, new Map(rates.map((rate) => [rate.id, rate]))), errors };
  } catch (error) {
    if (!(error instanceof DomainError) || !error.field) throw error;
    return { inputs, errors: { [error.field]: withoutFieldName(error.message, error.field) } };
  }
}
