// Finance documents: an invoice as a PDF to send (GET /finance/invoices/:id/pdf),
// a REST download only (a PDF is no GraphQL value); the credit note's comes
// with credit notes (routes.ts: creditNoteDocumentOf).
import { defineModule } from '../../kit/module.js';
import { invoicePdfRoute } from './routes.js';

export const financeDocumentsModule = defineModule({ resolvers: [], routes: [invoicePdfRoute], services: {} });
