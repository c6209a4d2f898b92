// An export's `amounts`: "minor" writes money as the API does (integer minor
// units); "decimal" in major units with the currency's decimals (107.10 EUR,
// 1500 JPY, 1.500 KWD), for a spreadsheet. Which fields are money, and which
// currency each is in, is read from the public type: a money field
// (`@Public.money`, or computed from it) is in the `currency` field of its own
// object, else of the nearest object holding it that has one (an invoice's
// lines are in the invoice's currency, a payslip's lines in the payslip's).
import { publicFieldsOf, type PublicType } from '../../kit/fields.js';
import { majorUnits } from '../../kit/major-units.js';

export const EXPORT_AMOUNTS = ['minor', 'decimal'] as const;
export type ExportAmounts = (typeof EXPORT_AMOUNTS)[number];

/** An amount in major units: JSON writes it as a string ("107.10": exact, its decimals kept), CSV as the bare number. */
export class DecimalAmount {
  constructor(readonly text: string) {}

  toJSON(): string {
    return this.text;
  }
}

/** Where the money of a row is: its own money fields, its currency field, and objects within it that hold money. */
export interface MoneyShape {
  amounts: string[];
  currency?: string;
  nested: { field: string; shape: MoneyShape }[];
}

const CURRENCY_FIELD = 'currency';

/** The money of a public type's objects; undefined when it holds none. */
export function moneyShapeOf(type: PublicType): MoneyShape | undefined {
  const fields = publicFieldsOf(type);
  const amounts = fields.filter(({ kind }) => kind.money).map(({ name }) => name);
  const nested = fields.flatMap(({ name, kind }) => {
    const shape = kind.item && moneyShapeOf(kind.item);
    return shape ? [{ field: name, shape }] : [];
  });
  if (!amounts.length && !nested.length) return undefined;
  const currency = fields.some(({ name }) => name === CURRENCY_FIELD) ? CURRENCY_FIELD : undefined;
  return { amounts, currency, nested };
}

/** The first money field with no currency in its object or around it (`amount` of a pay component), if any. */
export function amountWithoutCurrency(shape: MoneyShape, inherited = false, path = ''): string | undefined {
  const known = inherited || shape.currency !== undefined;
  if (!known && shape.amounts.length) return `${path}${shape.amounts[0]}`;
  for (const { field, shape: inner } of shape.nested) {
    const found = amountWithoutCurrency(inner, known, `${path}${field}.`);
    if (found) return found;
  }
  return undefined;
}

/** The row with its money in major units (a copy; null stays null). */
export function inMajorUnits(
  row: Record<string, unknown>,
  shape: MoneyShape,
  inherited?: string | null,
): Record<string, unknown> {
  const currency = shape.currency ? (row[shape.currency] as string | null) : inherited;
  const converted: Record<string, unknown> = { ...row };
  for (const field of shape.amounts) {
    const value = row[field];
    if (value === null || value === undefined) continue;
    if (!currency) throw new Error(`An amount (${field}) has no currency to write it in major units`);
    converted[field] = new DecimalAmount(majorUnits(value as number, currency));
  }
  for (const { field, shape: inner } of shape.nested) {
    const value = row[field];
    if (Array.isArray(value)) {
      converted[field] = value.map((item: Record<string, unknown>) => inMajorUnits(item, inner, currency));
    } else if (value && typeof value === 'object') {
      converted[field] = inMajorUnits(value as Record<string, unknown>, inner, currency);
    }
  }
  return converted;
}
