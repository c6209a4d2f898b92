// The plain shape a finance document is printed from (render.ts), and how an
// invoice and a credit note, as their REST/GraphQL answers show them, become
// one. Fields that other parts of finance add (taxes, discounts, credits,
// terms: issue 26) are optional here, under their wire names: printed when the
// record carries them, left out when it does not.

/** A tax on a line or, summed per rate, on the document. */
export interface DocumentTax {
  name: string;
  /** As given: "19", "8.875". */
  percentage: string;
  /** The price includes it (it is not added to the total). */
  inclusive: boolean;
  taxableAmount: number;
  amount: number;
}

export interface DocumentLine {
  description: string;
  quantity: number;
  unitAmount: number;
  /** After the discount, before exclusive taxes. */
  amount: number;
  /** Minor units taken off the line. */
  discount?: number | null;
  /** The discount as given in percent ("10"), when it was. */
  discountPercent?: string | null;
  taxes?: DocumentTax[] | null;
}

/** Who issues the document: the organization's settings. */
export interface DocumentIssuer {
  name: string;
  legalName?: string | null;
  /** Lines separated by newlines. */
  address?: string | null;
  taxId?: string | null;
}

/** Who it is addressed to: the contact. */
export interface DocumentRecipient {
  name?: string | null;
  company?: string | null;
  email?: string | null;
}

export interface FinanceDocument {
  title: 'Invoice' | 'Credit note';
  number: string;
  /** A draft or void document says so on its face. */
  status?: string | null;
  currency: string;
  issueDate?: string | null;
  dueDate?: string | null;
  paymentTermsDays?: number | null;
  /** A credit note's invoice. */
  invoiceNumber?: string | null;
  reason?: string | null;
  issuer: DocumentIssuer;
  recipient: DocumentRecipient;
  lines: DocumentLine[];
  subtotal: number;
  discountTotal?: number | null;
  /** Per rate. */
  taxes?: DocumentTax[] | null;
  taxTotal?: number | null;
  total: number;
  amountPaid?: number | null;
  amountCredited?: number | null;
  amountDue?: number | null;
  notes?: string | null;
}

/** The organization and contact a document names, read by the caller (routes.ts). */
export interface DocumentParties {
  issuer: DocumentIssuer;
  recipient: DocumentRecipient;
}

/** A contact as the CRM holds it -> what a document prints: its name, company and email. */
export function recipientOf(
  contact: {
    firstName?: string | null;
    lastName?: string | null;
    company?: string | null;
    email?: string | null;
  } | null,
): DocumentRecipient {
  if (!contact) return {};
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
  return { name: name || null, company: contact.company ?? null, email: contact.email ?? null };
}

/** An invoice as GET /finance/invoices/:id answers it (the fields other helpers add, optional). */
export interface InvoiceRecord {
  number: string;
  status: string;
  currency: string;
  issueDate: string;
  dueDate: string;
  paymentTermsDays?: number | null;
  lines: DocumentLine[];
  notes: string | null;
  subtotal: number;
  discountTotal?: number | null;
  taxes?: DocumentTax[] | null;
  taxTotal?: number | null;
  total: number;
  amountPaid: number;
  amountCredited?: number | null;
  amountDue: number;
}

export function invoiceDocument(invoice: InvoiceRecord, parties: DocumentParties): FinanceDocument {
  return {
    title: 'Invoice',
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    paymentTermsDays: invoice.paymentTermsDays,
    ...parties,
    lines: invoice.lines,
    subtotal: invoice.subtotal,
    discountTotal: invoice.discountTotal,
    taxes: invoice.taxes,
    taxTotal: invoice.taxTotal,
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    amountCredited: invoice.amountCredited,
    amountDue: invoice.amountDue,
    notes: invoice.notes,
  };
}

/** A credit note as GET /finance/credit-notes/:id answers it: lines as an invoice's, or a plain amount. */
export interface CreditNoteRecord {
  /** Given when issued: null while a draft. */
  number: string | null;
  status: string;
  currency: string;
  reason?: string | null;
  lines?: DocumentLine[] | null;
  amount?: number | null;
  /** Its timestamp; printed as the date in the organization's time zone. */
  issuedAt?: string | null;
  subtotal: number;
  discountTotal?: number | null;
  taxes?: DocumentTax[] | null;
  taxTotal?: number | null;
  total: number;
}

/** A calendar day (YYYY-MM-DD) of a timestamp in a time zone. */
export function dayIn(timestamp: string, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(timestamp),
  );
}

export function creditNoteDocument(
  creditNote: CreditNoteRecord,
  parties: DocumentParties & { invoiceNumber: string | null; timeZone: string },
): FinanceDocument {
  // A credit of a plain amount prints as one line, so the document always has its table.
  const lines = creditNote.lines?.length
    ? creditNote.lines
    : [
        {
          description: creditNote.reason ?? 'Credit',
          quantity: 1,
          unitAmount: creditNote.amount ?? creditNote.total,
          amount: creditNote.amount ?? creditNote.total,
        },
      ];
  return {
    title: 'Credit note',
    number: creditNote.number ?? '(draft)',
    status: creditNote.status,
    currency: creditNote.currency,
    issueDate: creditNote.issuedAt ? dayIn(creditNote.issuedAt, parties.timeZone) : null,
    invoiceNumber: parties.invoiceNumber,
    reason: creditNote.reason,
    issuer: parties.issuer,
    recipient: parties.recipient,
    lines,
    subtotal: creditNote.subtotal,
    discountTotal: creditNote.discountTotal,
    taxes: creditNote.taxes,
    taxTotal: creditNote.taxTotal,
    total: creditNote.total,
  };
}
