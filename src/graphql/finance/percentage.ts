// Percentages as finance takes and shows them: decimal strings ("19", "8.875",
// "12.5") with at most 4 decimals, never binary floats. Computed with as whole
// ten-thousandths of a percent (BigInt), so "8.875" is 88,750 and a rate applies
// exactly; shown in their shortest form ("19.50" is "19.5").
import { z } from 'zod';

/** Ten-thousandths per percent: the scale of a parsed percentage. */
export const PERCENT_SCALE = 10_000n;
/** 100 % in that scale. */
export const HUNDRED_PERCENT = 100n * PERCENT_SCALE;

const DECIMAL = /^\d{1,3}(\.\d{1,4})?$/;

/** The percentage in ten-thousandths of a percent: "8.875" is 88750n. */
export function scaledPercentage(percentage: string): bigint {
  if (!DECIMAL.test(percentage)) throw new Error(`not a percentage: ${percentage}`);
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

/**
 * A percentage given as a decimal string, from `min` (inclusive unless
 * `aboveMin`) to `max` (inclusive), at most 4 decimals; stored in its shortest form.
 */
export function percentageSchema({ min, max, aboveMin = false }: { min: number; max: number; aboveMin?: boolean }) {
  const range = `${aboveMin ? 'above' : 'from'} ${min} ${aboveMin ? 'and at most' : 'to'} ${max}`;
  const message = `must be a decimal string ${range} with at most 4 decimals, e.g. "19" or "8.875"`;
  const low = scaledPercentage(String(min));
  const high = scaledPercentage(String(max));
  return (
    z
      .string(message)
      .regex(DECIMAL, message)
      // zod runs this after a failed regex too: only a decimal is compared.
      .refine((value) => {
        if (!DECIMAL.test(value)) return true;
        const scaled = scaledPercentage(value);
        return (aboveMin ? scaled > low : scaled >= low) && scaled <= high;
      }, message)
      .transform(canonicalPercentage)
  );
}
