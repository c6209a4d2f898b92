// GET /finance/invoices/:id/pdf, and the same for any finance record that has a
// document (documentRoute): a download row of the route kit. Its operation is
// the record's own GraphQL query with the selection its JSON answer uses, so
// the scope, the organization, the 404 and every amount come from the one
// place the JSON invoice comes from; the organization and the contact the
// document names are then read through their services, for the caller's
// organization.
import { withArticle } from '../../kit/article.js';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { selectionOf, type PublicType } from '../../kit/fields.js';
import { AREAS } from '../../kit/resource.js';
import { route, type FileAnswer, type RestRoute } from '../../kit/routes.js';
import { CreditNote } from '../credit-note/type.js';
import { Invoice } from '../invoice/type.js';
import {
  creditNoteDocument,
  invoiceDocument,
  recipientOf,
  type CreditNoteRecord,
  type DocumentParties,
  type FinanceDocument,
  type InvoiceRecord,
} from './document.js';

export const PDF = 'application/pdf';

/** A name safe in a Content-Disposition header and on any file system: INV-000001.pdf. */
export function pdfFileName(number: string): string {
  const safe = number.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return `${safe || 'document'}.pdf`;
}

/** The organization (as it prints itself) and the contact of a record, for the caller's organization. */
async function partiesOf(ctx: Context, contactId: string): Promise<DocumentParties & { timeZone: string }> {
  const principal = requirePrincipal(ctx);
  const [organization, [contact]] = await Promise.all([
    ctx.services.organizations.get(principal),
    ctx.services.contacts.findMany(principal, [contactId]),
  ]);
  return {
    issuer: organization,
    recipient: recipientOf(contact ?? null),
    timeZone: organization.timeZone,
  };
}

interface DocumentRouteOptions<R> {
  /** e.g. /finance/invoices/:id/pdf */
  path: string;
  tag: string;
  /** 'invoice': the root query that answers the record by id, with the record's scope. */
  query: string;
  /** The record's type: the same selection as its JSON answer. */
  type: PublicType;
  noun: string;
  /** Its first number, for the file name the description shows: INV-000001. */
  firstNumber: string;
  /** The record as read -> the document printed. */
  document(ctx: Context, record: R): Promise<FinanceDocument>;
}

/** `GET <path>`: the record as a PDF, named after its number. */
export function documentRoute<R extends { id: string; number: string | null }>(
  options: DocumentRouteOptions<R>,
): RestRoute {
  const upper = options.query[0]!.toUpperCase() + options.query.slice(1);
  return route({
    method: 'get',
    path: options.path,
    tag: options.tag,
    summary: `Download ${withArticle(options.noun)} as a PDF`,
    operationId: `get${upper}Pdf`,
    description:
      `The ${options.noun} as a PDF document to send (A4, fonts embedded): the organization's name, address and tax ` +
      'id, the contact, the dates, the lines with their discounts and taxes, the totals per tax rate and what is ' +
      `due. With a Content-Disposition naming it after its number (${options.firstNumber}.pdf).`,
    operation: `query ($id: ID!) { ${options.query}(id: $id) { ${selectionOf(options.type)} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    file: {
      contentTypes: [PDF],
      async open(ctx, data): Promise<FileAnswer> {
        const record = data as R;
        // pdfkit and the fonts (a few MB of code and tables) load with the first document printed.
        const { renderDocument } = await import('./render.js');
        const pdf = await renderDocument(await options.document(ctx, record));
        // A draft credit note has no number yet: draft-crn_….pdf.
        const filename = pdfFileName(record.number ?? `draft-${record.id}`);
        return { contentType: PDF, filename, size: pdf.length, body: once(pdf) };
      },
    },
  });
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

export const invoicePdfRoute = documentRoute<InvoiceRecord & { id: string; contactId: string }>({
  path: '/finance/invoices/:id/pdf',
  tag: AREAS.finance.tag,
  query: 'invoice',
  type: Invoice,
  noun: 'invoice',
  firstNumber: 'INV-000001',
  document: async (ctx, invoice) => invoiceDocument(invoice, await partiesOf(ctx, invoice.contactId)),
});

/** The credit note's document: its invoice's number read through the invoices service. */
export async function creditNoteDocumentOf(
  ctx: Context,
  creditNote: CreditNoteRecord & { id: string; contactId: string; invoiceId: string },
): Promise<FinanceDocument> {
  const principal = requirePrincipal(ctx);
  const [parties, [invoice]] = await Promise.all([
    partiesOf(ctx, creditNote.contactId),
    ctx.services.invoices.findMany(principal, [creditNote.invoiceId]),
  ]);
  return creditNoteDocument(creditNote, { ...parties, invoiceNumber: invoice?.number ?? null });
}

/** GET /finance/credit-notes/:id/pdf, over the `creditNote` query. */
export const creditNotePdfRoute = documentRoute({
  path: '/finance/credit-notes/:id/pdf',
  tag: AREAS.finance.tag,
  query: 'creditNote',
  type: CreditNote,
  noun: 'credit note',
  firstNumber: 'CN-000001',
  document: creditNoteDocumentOf,
});
