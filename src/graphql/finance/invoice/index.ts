// Invoices, declared once (see kit/resource.ts). Particular to them: the
// number, assigned in sequence per organization when not given (numbering.ts);
// the amounts computed from the lines, their discounts and the tax rates they
// name (amounts.ts, ../tax-rate/lines.ts); the dates under payment terms
// (../terms/due-date.ts); and the lifecycle draft → open → paid (payments and
// credit notes, see balance.ts), or void from draft or open while nothing is
// paid or credited; overdue when open past its due date
// (../terms/overdue-sweep.ts raises invoice.overdue).
import { event } from '../../../events/event.js';
import { DomainError } from '../../../errors.js';
import { contacts } from '../../crm/contact/index.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { datesOnCreate, datesOnUpdate } from '../terms/due-date.js';
import type { LineInput } from './amounts.js';
import { invoiceInput, invoiceList } from './input.js';
import { nextInvoiceNumber } from './numbering.js';
import { priceInvoice } from './pricing.js';
import { Invoice } from './type.js';

/** Raised by what covers the invoice (balance.ts), declared here with the invoice's other events. */
export const invoicePaid = event(
  'invoice.paid',
  'An invoice was paid in full (by the payment, allocation or credit note that covered it).',
  { actor: 'the caller of the covering payment, allocation or credit note' },
);

/** Raised by the refund that leaves a paid invoice owing again (balance.ts). */
export const invoiceReopened = event(
  'invoice.reopened',
  'A paid invoice was opened again: a refund of its payments left part of it due.',
  { actor: 'the caller of the refund' },
);

/** Raised by the worker on the day an invoice becomes overdue (../terms/overdue-sweep.ts), once per invoice. */
export const invoiceOverdue = event(
  'invoice.overdue',
  "An open invoice's dueDate passed with an amount still due (raised once, on the day it became overdue).",
  { actor: '`system` (the worker)' },
);

export const invoices = defineResource({
  type: Invoice,
  idPrefix: 'inv',
  area: AREAS.finance,
  path: 'invoices',
  names: { one: 'invoice', many: 'invoices' },
  input: invoiceInput,
  list: invoiceList,
  unique: { number: 'An invoice with this number already exists in the organization' },
  // No Contact.invoices: the schema has none (adding it would change the API).
  references: { contactId: { target: contacts, inverse: false } },
  events: {
    created: event('invoice.created', 'An invoice was created (POST /finance/invoices).'),
    updated: event('invoice.updated', 'A draft invoice was changed (PUT /finance/invoices/:id).'),
    others: [invoicePaid, invoiceReopened, invoiceOverdue],
  },
  descriptions: {
    create:
      'Computes each line’s discount, amount (quantity × unitAmount rounded half up to the minor unit, less the ' +
      'discount) and taxes, then subtotal, discountTotal, taxTotal, taxes per rate and total (README: Taxes and ' +
      'discounts); assigns the next number INV-000001, … when none is given; dates it today (the organization’s) ' +
      'and due after its terms (its paymentTermsDays, else the contact’s, else the organization’s) unless given. ' +
      'A line’s taxRateIds must be active rates of the organization (400 naming `lines.<n>.taxRateIds`). Emits ' +
      '`invoice.created`.',
    update:
      'Only while draft; new lines are computed again (a rate deactivated since may stay on the invoice that ' +
      'used it). Emits `invoice.updated`.',
  },
  lifecycle: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    actions: {
      open: {
        from: ['draft'],
        to: 'open',
        description: 'Opens the invoice to payments; it can no longer be edited.',
        event: event('invoice.opened', 'An invoice was opened to payments (POST /finance/invoices/:id/open).'),
      },
      void: {
        from: ['draft', 'open'],
        to: 'void',
        description:
          'Cancels the invoice: nothing is due any more (amountDue 0); refused (409) while payments or issued ' +
          'credit notes count against it.',
        conflict: 'The invoice has payments or credit notes',
        sets: (_input, invoice) => {
          if (invoice.amountPaid > 0) {
            throw new DomainError('CONFLICT', 'Invoice has payments; it cannot be voided', 'status');
          }
          if (invoice.amountCredited > 0) {
            throw new DomainError('CONFLICT', 'Invoice has issued credit notes; it cannot be voided', 'status');
          }
          return {};
        },
        event: event('invoice.voided', 'An invoice was voided (POST /finance/invoices/:id/void).'),
      },
    },
  },
  rules: {
    async create(values, rules) {
      return {
        ...(await datesOnCreate(values, rules)),
        ...(await priceInvoice(rules, values.id as string, values.lines as LineInput[])),
        number: values.number ?? (await nextInvoiceNumber(rules)),
      };
    },
    // null resets a field to its default, as on create: today, the default terms, the next number.
    async update(change, rules) {
      const { before, changes } = change;
      const more = await datesOnUpdate(change, rules);
      if (changes.number === null) more.number = await nextInvoiceNumber(rules);
      if (changes.lines) {
        const previous = before.taxes.map((tax) => tax.taxRateId);
        Object.assign(more, await priceInvoice(rules, before.id, changes.lines as LineInput[], previous));
      }
      return more;
    },
  },
  examples: {
    create: (n) => ({
      currency: 'EUR',
      issueDate: '2026-03-01',
      dueDate: '2026-03-31',
      lines: [
        { description: `Work ${n}`, quantity: 1.5, unitAmount: 10_000 },
        { description: 'Travel', quantity: 1, unitAmount: 4_000, discountPercent: '12.5' },
      ],
      notes: 'Net 30',
    }),
    update: { notes: 'Changed', dueDate: '2100-01-01' },
  },
});
