// The accountant's desk: the pages particular to finance (the invoice editor,
// an invoice's and a payment's pages with their actions, the receivables
// aging). Its routes are matched before the generic record pages, so
// /finance/invoices/new and /finance/invoices/:id are these.
import type { Route, Section } from '../../section.js';
import { AgingPage } from './aging.js';
import { EditInvoicePage, NewInvoicePage } from './invoice-editor.js';
import { InvoicePage } from './invoice-page.js';
import { PaymentPage } from './payment-page.js';

// `/finance/invoices/new` before `/finance/invoices/:id`: the first route that matches wins.
const routes: Route[] = [
  { path: '/finance/invoices/new', page: NewInvoicePage, needs: 'finance:write' },
  { path: '/finance/invoices/:id/edit', page: EditInvoicePage, needs: 'finance:write' },
  { path: '/finance/invoices/:id', page: InvoicePage, needs: 'finance:read' },
  { path: '/finance/payments/:id', page: PaymentPage, needs: 'finance:read' },
  { path: '/finance/aging', page: AgingPage, needs: 'finance:read' },
];

export const financeDesk: Section = {
  title: 'Finance',
  links: [
    { href: '/finance/invoices/new', label: 'New invoice', needs: 'finance:write' },
    { href: '/finance/aging', label: 'Receivables aging', needs: 'finance:read' },
  ],
  routes,
};
