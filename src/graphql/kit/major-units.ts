// Integer minor units written in major units with the currency's decimals:
// 10710 EUR is "107.10", 1500 JPY "1500", 1500 KWD "1.500". The decimals are the
// ones Intl knows for the currency (CLDR's, from ISO 4217; the dashboard reads
// amounts with the same), and the text is made from the integer's digits, never
// by dividing a float, so it is exact up to 2^53 − 1 minor units and beyond.

const digitsByCurrency = new Map<string, number>();

/** The currency's decimals (EUR 2, JPY 0, KWD 3); a code Intl refuses throws a RangeError. */
export function currencyDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** A whole number of minor units as a decimal string in major units: -5 EUR is "-0.05". */
export function majorUnits(minor: number | bigint, currency: string): string {
  const amount = BigInt(minor);
  const digits = currencyDigits(currency);
  const sign = amount < 0n ? '-' : '';
  const text = (amount < 0n ? -amount : amount).toString().padStart(digits + 1, '0');
  if (digits === 0) return `${sign}${text}`;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
