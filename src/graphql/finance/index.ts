// The Finance area: one line per resource.
import { invoiceModule } from './invoice/index.js';
import { paymentModule } from './payment/index.js';

export const finance = [invoiceModule, paymentModule] as const;
