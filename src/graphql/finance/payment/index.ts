// Payments, declared once (see kit/resource.ts). Particular to them: a
// payment against an invoice locks the invoice row (`for update`) for its
// transaction, so concurrent payments are checked one after another: the
// invoice must be open, in the same currency, and owe at least the amount.
// The invoice's amountPaid moves in the same transaction; when it reaches the
// total the invoice becomes paid and raises `invoice.paid` (exactly once).
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { sqlSelectOf } from '../../kit/fields.js';
import { defineResource } from '../../kit/define-resource.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { previousAttributes } from '../../kit/records.js';
import { AREAS } from '../../kit/resource.js';
import { NOW, updateRecordFromRule } from '../../kit/store.js';
import { invoicePaid, invoices } from '../invoice/index.js';
import { Invoice } from '../invoice/type.js';
import { paymentInput, paymentList } from './input.js';
import { Payment } from './type.js';

/** Applies the payment to its invoice (locked until commit); the invoice becomes paid when covered. */
async function payInvoice(values: Record<string, unknown>, rules: RuleContext) {
  const [invoice] = await rules.query<Invoice>(
    `select ${sqlSelectOf(Invoice, 'Invoice')} from "Invoice" where id = $1 and "organizationId" = $2 for update`,
    [values.invoiceId, rules.organizationId],
  );
  if (!invoice) throw invalidField('invoiceId', 'no invoice with this id in the organization');
  if (invoice.status === 'draft' || invoice.status === 'void') {
    throw new DomainError('CONFLICT', `Invoice is ${invoice.status}; a payment needs it to be open`, 'invoiceId');
  }
  if (values.currency !== invoice.currency)
    throw invalidField('currency', `must be the invoice's (${invoice.currency})`);
  const amount = values.amount as number;
  if (amount > invoice.amountDue)
    throw invalidField('amount', `must be at most the invoice's amount due (${invoice.amountDue})`);
  const changes: Record<string, unknown> = { amountPaid: invoice.amountPaid + amount };
  const covered = amount === invoice.amountDue;
  if (covered) changes.status = 'paid';
  const events = covered
    ? [{ type: invoicePaid.type, previousAttributes: previousAttributes(invoice, Object.keys(changes)) }]
    : [];
  await updateRecordFromRule(rules, invoices.resource, { id: invoice.id, changes, events });
}

export const payments = defineResource({
  type: Payment,
  idPrefix: 'pmt',
  area: AREAS.finance,
  path: 'payments',
  names: { one: 'payment', many: 'payments' },
  input: paymentInput,
  list: paymentList,
  operations: { update: false },
  references: {
    invoiceId: { target: invoices, inverse: { description: 'The payments against the invoice, oldest first.' } },
  },
  events: {
    created: event('payment.received', 'A payment was recorded against an invoice (POST /finance/payments).'),
  },
  conflicts: { create: 'The invoice is draft or void' },
  descriptions: {
    create:
      'Against an open invoice in its currency, at most what it still owes; when it covers the total the ' +
      'invoice becomes paid and `invoice.paid` is emitted in the same transaction. Emits `payment.received`.',
  },
  rules: {
    async create(values, rules) {
      if (values.invoiceId) await payInvoice(values, rules);
      return { receivedAt: values.receivedAt ?? NOW };
    },
  },
  examples: {
    // Unallocated: a payment needs its invoice open (test/payments.test.ts).
    create: (n) => ({ amount: 100 * n, currency: 'EUR', method: 'bank_transfer', reference: `wire ${n}` }),
  },
});
