// Percentages as finance takes them: decimal strings with at most 4 decimals,
// never binary floats (the arithmetic is percentage-scale.ts, which the
// dashboard bundles too; this adds the input schema).
import { z } from 'zod';
import { canonicalPercentage, DECIMAL_PERCENTAGE, scaledPercentage } from './percentage-scale.js';

export { canonicalPercentage, HUNDRED_PERCENT, PERCENT_SCALE, scaledPercentage } from './percentage-scale.js';

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
      .regex(DECIMAL_PERCENTAGE, message)
      // zod runs this after a failed regex too: only a decimal is compared.
      .refine((value) => {
        if (!DECIMAL_PERCENTAGE.test(value)) return true;
        const scaled = scaledPercentage(value);
        return (aboveMin ? scaled > low : scaled >= low) && scaled <= high;
      }, message)
      .transform(canonicalPercentage)
  );
}
