// What the finance pages read of an invoice, a payment and a credit note: the
// GraphQL selections and their shapes, written once.
import type { Line, TaxAmount, TaxRateTerms } from '../../../../graphql/finance/invoice/amounts.js';

export const TAX_FIELDS = 'taxRateId name percentage inclusive taxableAmount amount';
export const LINE_FIELDS = `description quantity unitAmount discountPercent discountAmount discount amount taxRateIds taxes { ${TAX_FIELDS} }`;

export interface Contact {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  company: string | null;
}

export const contactName = (contact: Contact) =>
  [contact.firstName, contact.lastName].filter(Boolean).join(' ') || contact.email;

export interface Payment {
  id: string;
  invoiceId: string | null;
  amount: number;
  currency: string;
  method: string;
  receivedAt: string;
  reference: string | null;
  amountRefunded: number;
  refunds: { amount: number; reason: string; refundedAt: string }[];
}

export const PAYMENT_FIELDS =
  'id invoiceId amount currency method receivedAt reference amountRefunded refunds { amount reason refundedAt }';

export interface CreditNote {
  id: string;
  number: string | null;
  status: string;
  reason: string;
  total: number;
  currency: string;
  issuedAt: string | null;
}

export const CREDIT_NOTE_FIELDS = 'id number status reason total currency issuedAt';

export interface Invoice {
  id: string;
  number: string;
  contactId: string;
  currency: string;
  issueDate: string;
  dueDate: string;
  paymentTermsDays: number;
  notes: string | null;
  status: 'draft' | 'open' | 'paid' | 'void';
  overdue: boolean;
  lines: Line[];
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  taxes: TaxAmount[];
  total: number;
  amountPaid: number;
  amountCredited: number;
  amountDue: number;
  creditBalance: number;
  createdAt: string;
  updatedAt: string;
}

export const INVOICE_FIELDS =
  'id number contactId currency issueDate dueDate paymentTermsDays notes status overdue ' +
  `lines { ${LINE_FIELDS} } subtotal discountTotal taxTotal taxes { ${TAX_FIELDS} } total ` +
  'amountPaid amountCredited amountDue creditBalance createdAt updatedAt';

/** The contact's fields, selected only for a viewer with crm:read (the API refuses Invoice.contact without it). */
export const CONTACT_FIELDS = 'contact { id firstName lastName email company }';

/** The active tax rates a line may name. */
export const ACTIVE_TAX_RATES = `query ActiveTaxRates {
  taxRates(active: true, limit: 100, sort: name) { data { id name percentage inclusive } }
}`;

export type TaxRates = { taxRates: { data: TaxRateTerms[] } };

/** The rates an invoice's taxes name, as pricing needs them (a draft may keep one deactivated since). */
export const ratesOf = (taxes: readonly TaxAmount[]): TaxRateTerms[] =>
  taxes.map(({ taxRateId, name, percentage, inclusive }) => ({ id: taxRateId, name, percentage, inclusive }));

/** Each rate once, the first given winning. */
export function uniqueRates(...lists: (readonly TaxRateTerms[])[]): TaxRateTerms[] {
  const byId = new Map<string, TaxRateTerms>();
  for (const rate of lists.flat()) if (!byId.has(rate.id)) byId.set(rate.id, rate);
  return [...byId.values()];
}

/** "VAT 19 %", "VAT 20 % included". */
export const rateLabel = (rate: { name: string; percentage: string; inclusive: boolean }) =>
  `${rate.name} ${rate.percentage} %${rate.inclusive ? ' included' : ''}`;
