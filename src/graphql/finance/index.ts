// The finance area: one line per resource.
import { expenses } from './expense/index.js';
import { invoices } from './invoice/index.js';
import { payments } from './payment/index.js';
import { receivablesAgingModule } from './receivables-aging/index.js';

export const finance = [invoices.module, payments.module, expenses.module, receivablesAgingModule] as const;
