// Finance documents: an invoice or a credit note as a PDF to send
// (GET /finance/invoices/:id/pdf, GET /finance/credit-notes/:id/pdf), REST
// downloads only (a PDF is no GraphQL value).
import { defineModule } from '../../kit/module.js';
import { creditNotePdfRoute, invoicePdfRoute } from './routes.js';

export const financeDocumentsModule = defineModule({
  resolvers: [],
  routes: [invoicePdfRoute, creditNotePdfRoute],
  services: {},
});
