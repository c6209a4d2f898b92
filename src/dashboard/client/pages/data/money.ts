// Amounts are minor units in the API (cents); people type and read them in
// major units. Only the display changes: the API still checks the amount.

const digitsByCurrency = new Map<string, number>();

function fractionDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** `1250.5` EUR → 125050; undefined when the text is not a plain number (the form says so). */
export function toMinorUnits(text: string, currency: string): number | undefined {
  const normalized = text.replace(/[\s_]/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(normalized)) return undefined;
  return Math.round(Number(normalized) * 10 ** fractionDigits(currency));
}

/** 125050 EUR → `1250.50`, as typed in a form. */
export function fromMinorUnits(amount: number, currency: string): string {
  const digits = fractionDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}
