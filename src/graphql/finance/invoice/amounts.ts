// An invoice's amounts, computed by the service, never taken from the client.
// A line's amount is quantity × unitAmount rounded half up to the minor unit,
// computed exactly: the quantity (at most 3 decimals) as an integer number of
// thousandths, the product in BigInt. The subtotal is the sum of the lines'
// amounts; there is no tax, so the total is the subtotal.
import { invalidField } from '../../../errors.js';

export interface LineInput {
  description: string;
  quantity: number;
  unitAmount: number;
  /** A line sent back as read carries its amount: only the computed one is accepted. */
  amount?: number | null;
}

export interface Line extends LineInput {
  amount: number;
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** The quantity in thousandths: 1.5 is 1500 (the input allows at most 3 decimals). */
export const thousandths = (quantity: number) => BigInt(Math.round(quantity * 1000));

/** quantity × unitAmount, rounded half up to the minor unit. */
export function lineAmount(quantity: number, unitAmount: number): bigint {
  return (2n * thousandths(quantity) * BigInt(unitAmount) + 1000n) / 2000n;
}

/**
 * The lines with their amounts, and the subtotal and total; 400 on `lines` past
 * 2^53 − 1, and on a line's amount given other than computed.
 */
export function invoiceAmounts(lines: LineInput[]) {
  const amounts = lines.map((line) => lineAmount(line.quantity, line.unitAmount));
  lines.forEach(({ amount }, i) => {
    if (amount != null && !(Number.isSafeInteger(amount) && BigInt(amount) === amounts[i])) {
      throw invalidField(
        `lines.${i}.amount`,
        `is computed (quantity × unitAmount: ${amounts[i]}); send that or leave it out`,
      );
    }
  });
  const subtotal = amounts.reduce((sum, amount) => sum + amount, 0n);
  if (subtotal > MAX) {
    throw invalidField('lines', `the total would exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  return {
    lines: JSON.stringify(
      lines.map(({ description, quantity, unitAmount }, i): Line => ({
        description,
        quantity,
        unitAmount,
        amount: Number(amounts[i]),
      })),
    ),
    subtotal: String(subtotal),
    total: String(subtotal),
  };
}
