// Amounts as a document prints them: integer minor units written with the
// currency's decimals (EUR 2, JPY 0, KWD 3, as Intl's CLDR data gives them),
// exactly (digits moved as text, never divided in floating point), grouped by
// thousands with commas and a point for the decimals, so one document reads the
// same whatever the reader's locale.
import { majorUnits } from '../../kit/major-units.js';

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 123456 EUR -> "1,234.56"; -500 EUR -> "-5.00"; 1500 JPY -> "1,500" (the exports' majorUnits, grouped). */
export function formatMoney(minorUnits: number, currency: string): string {
  const [whole = '', fraction] = majorUnits(Math.trunc(minorUnits), currency).split('.');
  return grouped(whole) + (fraction === undefined ? '' : `.${fraction}`);
}

/** A quantity as given (at most 3 decimals), grouped: 1.5 -> "1.5", 1000 -> "1,000". */
export function formatQuantity(quantity: number): string {
  const [whole = '0', fraction] = String(quantity).split('.');
  return fraction ? `${grouped(whole)}.${fraction}` : grouped(whole);
}

/** A percentage as given ("19", "8.875") -> "19%", "8.875%". */
export const formatPercent = (percentage: string | number) => `${percentage}%`;
