// Amounts as a document prints them: integer minor units written with the
// currency's decimals (EUR 2, JPY 0, KWD 3, as Intl's CLDR data gives them),
// exactly (digits moved as text, never divided in floating point), grouped by
// thousands with commas and a point for the decimals, so one document reads the
// same whatever the reader's locale.

const decimalsByCurrency = new Map<string, number>();

/** The decimals of a currency's minor unit: 2 for EUR, 0 for JPY, 3 for KWD. */
export function currencyDecimals(currency: string): number {
  let decimals = decimalsByCurrency.get(currency);
  if (decimals === undefined) {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits!;
    decimalsByCurrency.set(currency, decimals);
  }
  return decimals;
}

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 123456 EUR -> "1,234.56"; -500 EUR -> "-5.00"; 1500 JPY -> "1,500". */
export function formatMoney(minorUnits: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  const negative = minorUnits < 0;
  const digits = BigInt(Math.abs(Math.trunc(minorUnits)))
    .toString()
    .padStart(decimals + 1, '0');
  const whole = grouped(digits.slice(0, digits.length - decimals));
  const fraction = decimals ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** A quantity as given (at most 3 decimals), grouped: 1.5 -> "1.5", 1000 -> "1,000". */
export function formatQuantity(quantity: number): string {
  const [whole = '0', fraction] = String(quantity).split('.');
  return fraction ? `${grouped(whole)}.${fraction}` : grouped(whole);
}

/** A percentage as given ("19", "8.875") -> "19%", "8.875%". */
export const formatPercent = (percentage: string | number) => `${percentage}%`;
