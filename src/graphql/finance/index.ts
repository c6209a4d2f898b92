// The finance area: one line per resource.
import { creditNotes } from './credit-note/index.js';
import { financeDocumentsModule } from './documents/index.js';
import { expenses } from './expense/index.js';
import { invoices } from './invoice/index.js';
import { payments } from './payment/index.js';
import { receivablesAgingModule } from './receivables-aging/index.js';
import { taxRates } from './tax-rate/index.js';

export const finance = [
  invoices.module,
  payments.module,
  creditNotes.module,
  expenses.module,
  taxRates.module,
  financeDocumentsModule,
  receivablesAgingModule,
] as const;
