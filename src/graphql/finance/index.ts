// The finance area: one line per resource.
import { expenseModule } from './expense/index.js';
import { invoiceModule } from './invoice/index.js';
import { paymentModule } from './payment/index.js';

export const finance = [invoiceModule, paymentModule, expenseModule] as const;
