// Invoice numbers: INV-000001, … per organization, from the InvoiceCounter row
// (kit/numbering.ts: a number a client gave is skipped, never repeated).
import type { RuleContext } from '../../kit/lifecycle.js';
import { numbering } from '../../kit/numbering.js';

const invoiceNumbers = numbering({
  prefix: 'INV',
  table: 'Invoice',
  counter: 'InvoiceCounter',
  exhausted: 'No invoice number is left to assign: give the invoice a number',
});

/** The next free number of the organization (the counter row stays locked until commit). */
export const nextInvoiceNumber = (rules: RuleContext): Promise<string> => invoiceNumbers.next(rules);
