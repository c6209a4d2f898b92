// Credit notes, declared once (see kit/resource.ts). Particular to them: one
// open or paid invoice of the organization, whose contact and currency they
// take; lines priced by the invoice's own rule (../invoice/amounts.ts, with the
// tax rates they name: ../tax-rate/lines.ts) or a
// plain amount, exactly one of the two; never more than the invoice's total
// less the credit notes issued against it. A draft is edited and deleted
// freely; issuing it takes the next number CN-000001, … (so deleted drafts
// leave no gap) and, with the invoice row locked, adds its total to the
// invoice's amountCredited: an open invoice left owing nothing becomes paid
// (`invoice.paid`), a paid one keeps the credit as its creditBalance, owed back
// to the contact (a refund of its payments pays it out).
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { contacts } from '../../crm/contact/index.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { numbering } from '../../kit/numbering.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { priceLines, type LineInput } from '../invoice/amounts.js';
import { lockInvoice, moveInvoiceBalance, requireInvoiceIn } from '../invoice/balance.js';
import { invoices } from '../invoice/index.js';
import type { Invoice } from '../invoice/type.js';
import { ratesOfLines } from '../tax-rate/lines.js';
import { creditNoteInput, creditNoteList } from './input.js';
import { CreditNote } from './type.js';

const creditNoteNumbers = numbering({
  prefix: 'CN',
  table: 'CreditNote',
  counter: 'CreditNoteCounter',
  exhausted: 'No credit note number is left to assign',
});

/** The invoice of a credit note, locked until commit: the organization's, open or paid. */
async function creditedInvoice(rules: RuleContext, invoiceId: unknown, doing: string): Promise<Invoice> {
  const invoice = await lockInvoice(rules, invoiceId);
  requireInvoiceIn(invoice, ['open', 'paid'], doing, 'invoiceId');
  return invoice;
}

/** What the invoice has left to credit: its total less the credit notes issued against it. */
const creditable = (invoice: Invoice) => invoice.total - invoice.amountCredited;

/**
 * The credit's priced columns: its lines priced as an invoice's, or a plain
 * amount (the other null; no discount, no tax). A line may name only rates the
 * invoice uses (a credit takes back tax that was charged; those rates are kept
 * from deletion by the invoice's use), though deactivated since.
 */
async function priced(rules: RuleContext, invoice: Invoice, lines: LineInput[] | null, amount: number | null) {
  if (!lines) {
    return { lines: null, amount, subtotal: amount!, discountTotal: 0, taxTotal: 0, taxes: '[]', total: amount! };
  }
  const invoiceRates = new Set(invoice.taxes.map((tax) => tax.taxRateId));
  lines.forEach((line, i) => {
    const foreign = line.taxRateIds?.find((id) => !invoiceRates.has(id));
    if (foreign) {
      throw invalidField(
        `lines.${i}.taxRateIds`,
        `the invoice does not use the tax rate ${foreign}: a credit note takes back only tax charged`,
      );
    }
  });
  const {
    lines: json,
    subtotal,
    discountTotal,
    taxTotal,
    taxes,
    total,
  } = priceLines(lines, await ratesOfLines(rules, lines, invoiceRates));
  if (total === 0) throw invalidField('lines', 'must credit more than 0');
  return {
    lines: JSON.stringify(json),
    amount: null,
    subtotal,
    discountTotal,
    taxTotal,
    taxes: JSON.stringify(taxes),
    total,
  };
}

/** 400 naming the field that set the total when it is more than the invoice has left to credit. */
function requireCreditable(invoice: Invoice, total: number, field: string) {
  if (total > creditable(invoice)) {
    throw invalidField(
      field,
      `the credit note's total (${total}) must be at most the invoice's total less its issued credit notes ` +
        `(${creditable(invoice)})`,
    );
  }
}

const NEITHER = 'give lines or an amount';

/** Exactly one of lines and amount. */
function requireLinesOrAmount(lines: unknown, amount: unknown) {
  if (lines != null && amount != null) throw invalidField('amount', 'give lines or an amount, not both');
  if (lines == null && amount == null) throw invalidField('lines', NEITHER);
}

export const creditNotes = defineResource({
  type: CreditNote,
  idPrefix: 'crn',
  area: AREAS.finance,
  path: 'credit-notes',
  names: { one: 'creditNote', many: 'creditNotes' },
  input: creditNoteInput,
  list: creditNoteList,
  operations: { delete: true },
  unique: { number: 'A credit note with this number already exists in the organization' },
  references: {
    invoiceId: { target: invoices, inverse: { description: 'The credit notes against the invoice, oldest first.' } },
    // Its invoice's contact; no Contact.creditNotes (the contact's invoices do not list either).
    contactId: { target: contacts, inverse: false },
  },
  events: {
    created: event('credit_note.created', 'A draft credit note was created (POST /finance/credit-notes).'),
    updated: event('credit_note.updated', 'A draft credit note was changed (PUT /finance/credit-notes/:id).'),
    deleted: event('credit_note.deleted', 'A draft credit note was deleted (DELETE /finance/credit-notes/:id).'),
  },
  conflicts: { create: 'The invoice is draft or void' },
  descriptions: {
    create:
      'A draft against an open or paid invoice, with its contact and currency: `lines` priced as an invoice’s, ' +
      'or a plain `amount`, at most the invoice’s total less its issued credit notes (400 naming the field). ' +
      'Emits `credit_note.created`.',
    update: 'Only while draft; lines are priced again, and giving `amount` or `lines` clears the other.',
    delete: 'Only while draft (an issued credit note is kept: 409).',
  },
  lifecycle: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    deletableIn: ['draft'],
    actions: {
      issue: {
        from: ['draft'],
        to: 'issued',
        description:
          'Issues the draft: gives it the next number CN-000001, … and adds its total to the invoice’s ' +
          '`amountCredited` (the invoice row locked). Refused (409) when the invoice is no longer open or paid ' +
          '(naming `invoiceId`) or has less left to credit than the total (naming `total`). An open invoice left ' +
          'owing nothing becomes paid (`invoice.paid`); on a paid one the credit is owed back (`creditBalance`).',
        changes: ['number', 'issuedAt'],
        conflict: 'The invoice is no longer open or paid, or has less left to credit than this total',
        sets: async (_input, note, rules) => {
          const invoice = await creditedInvoice(rules, note.invoiceId, 'issuing a credit note');
          if (note.total > creditable(invoice)) {
            throw new DomainError(
              'CONFLICT',
              `The invoice has ${creditable(invoice)} left to credit (its total less issued credit notes), ` +
                `less than this credit note's total ${note.total}`,
              'total',
            );
          }
          await moveInvoiceBalance(rules, invoice, { credited: note.total });
          return { number: await creditNoteNumbers.next(rules), issuedAt: NOW };
        },
        event: event(
          'credit_note.issued',
          'A credit note was issued against its invoice (POST /finance/credit-notes/:id/issue).',
        ),
      },
    },
  },
  rules: {
    async create(values, rules) {
      requireLinesOrAmount(values.lines, values.amount);
      const invoice = await creditedInvoice(rules, values.invoiceId, 'a credit note');
      const columns = await priced(rules, invoice, values.lines as LineInput[] | null, values.amount as number | null);
      requireCreditable(invoice, columns.total, values.lines ? 'lines' : 'amount');
      return { ...columns, contactId: invoice.contactId, currency: invoice.currency };
    },
    // Giving lines or an amount replaces what was credited (the other is cleared); clearing both is a 400.
    async update({ before, changes }, rules) {
      if (!('lines' in changes) && !('amount' in changes)) return;
      const lines = changes.lines as LineInput[] | null | undefined;
      const amount = changes.amount as number | null | undefined;
      if (lines == null && amount == null) throw invalidField(lines === null ? 'lines' : 'amount', NEITHER);
      requireLinesOrAmount(lines, amount);
      const invoice = await creditedInvoice(rules, before.invoiceId, 'a credit note');
      const columns = await priced(rules, invoice, lines ?? null, lines ? null : amount!);
      requireCreditable(invoice, columns.total, lines ? 'lines' : 'amount');
      return columns;
    },
  },
  examples: {
    // Half of the invoice example's 150.00.
    create: (n) => ({
      reason: `Returned goods ${n}`,
      lines: [{ description: `Work ${n}`, quantity: 0.5, unitAmount: 10_000 }],
    }),
    references: { invoiceId: { through: ['open'] } },
    update: { reason: 'Damaged in transit', amount: 2_500 },
  },
});
