// Percentages as exact numbers: decimal strings ("19", "8.875", "12.5") with at
// most 4 decimals, computed with as whole ten-thousandths of a percent (BigInt),
// so "8.875" is 88,750 and a rate applies exactly; shown in their shortest form
// ("19.50" is "19.5"). No dependency: the dashboard's invoice editor bundles it
// with the pricing (../invoice/amounts.ts) to show the server's totals as you type.

/** Ten-thousandths per percent: the scale of a parsed percentage. */
export const PERCENT_SCALE = 10_000n;
/** 100 % in that scale. */
export const HUNDRED_PERCENT = 100n * PERCENT_SCALE;

/** A decimal percentage: 1 to 3 digits, at most 4 decimals. */
export const DECIMAL_PERCENTAGE = /^\d{1,3}(\.\d{1,4})?$/;

/** The percentage in ten-thousandths of a percent: "8.875" is 88750n. */
export function scaledPercentage(percentage: string): bigint {
  if (!DECIMAL_PERCENTAGE.test(percentage)) throw new Error(`not a percentage: ${percentage}`);
  const [whole, fraction = ''] = percentage.split('.');
  return BigInt(whole!) * PERCENT_SCALE + BigInt(fraction.padEnd(4, '0'));
}

/** Its shortest decimal form: no leading zeros, no trailing decimal zeros ("019.50" is "19.5", "0.0" is "0"). */
export function canonicalPercentage(percentage: string): string {
  const scaled = scaledPercentage(percentage);
  const whole = scaled / PERCENT_SCALE;
  const fraction = String(scaled % PERCENT_SCALE)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
