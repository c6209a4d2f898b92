// Payments, declared once (see kit/resource.ts). Particular to them: a
// payment against an invoice, its allocation to one later and its refunds
// move the invoice's balance with the invoice row locked (../invoice/balance.ts),
// so concurrent ones are checked one after another: the invoice must be open,
// in the same currency, and owe at least what is applied; when it is covered
// it becomes paid and raises `invoice.paid` (exactly once), and a refund that
// leaves it owing opens it again. The payment's own row is locked by the kit
// for its actions, so concurrent refunds of one payment never exceed it.
import { event } from '../../../events/event.js';
import { DomainError, invalidField } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import { isoTimestamp } from '../../kit/fields.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { AREAS } from '../../kit/resource.js';
import { NOW } from '../../kit/store.js';
import { lockInvoice, moveInvoiceBalance } from '../invoice/balance.js';
import { invoices } from '../invoice/index.js';
import type { Invoice } from '../invoice/type.js';
import { allocateInput, paymentInput, paymentList, refundInput } from './input.js';
import { Payment, type Refund } from './type.js';

/** What an application of money to an invoice is refused with: the create's own fields, or the allocation's invoiceId. */
interface Refusals {
  currency(invoice: Invoice): DomainError;
  amount(invoice: Invoice): DomainError;
}

const createRefusals: Refusals = {
  currency: (invoice) => invalidField('currency', `must be the invoice's currency (${invoice.currency})`),
  amount: (invoice) => invalidField('amount', `must be at most the invoice's amount due (${invoice.amountDue})`),
};

const allocationRefusals = (net: number, currency: string): Refusals => ({
  currency: (invoice) =>
    invalidField('invoiceId', `must be an invoice in the payment's currency (${currency}), not ${invoice.currency}`),
  amount: (invoice) =>
    invalidField(
      'invoiceId',
      `must be an invoice owing at least the payment's net amount (${net}: its amount less refunds); ` +
        `this one owes ${invoice.amountDue}`,
    ),
});

/**
 * Applies `amount` in `currency` to the invoice (locked until commit): it must
 * be open (draft or void: 409; paid: nothing is due), in that currency, and owe
 * at least the amount.
 */
async function applyToInvoice(
  rules: RuleContext,
  invoiceId: unknown,
  { amount, currency }: { amount: number; currency: unknown },
  refusals: Refusals,
) {
  const invoice = await lockInvoice(rules, invoiceId);
  if (invoice.status === 'draft' || invoice.status === 'void') {
    throw new DomainError('CONFLICT', `Invoice is ${invoice.status}; a payment needs it to be open`, 'invoiceId');
  }
  if (currency !== invoice.currency) throw refusals.currency(invoice);
  if (amount > invoice.amountDue) throw refusals.amount(invoice);
  await moveInvoiceBalance(rules, invoice, { paid: amount });
}

/** The transaction's time as updatedAt stores it (to the millisecond), written as the API writes timestamps. */
async function transactionTime(rules: RuleContext): Promise<string> {
  const [row] = await rules.query<{ now: string }>(`select ${isoTimestamp('now()::timestamptz(3)')} as now`, []);
  return row!.now;
}

export const payments = defineResource({
  type: Payment,
  idPrefix: 'pmt',
  area: AREAS.finance,
  path: 'payments',
  names: { one: 'payment', many: 'payments' },
  input: paymentInput,
  list: paymentList,
  // Corrected by its actions (refund, allocate), never edited: PUT stays a 405.
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
  actions: {
    refund: {
      description:
        'Gives back `amount` (at most the amount less earlier refunds: else 400 naming `amount`) for a `reason`, ' +
        "added to `refunds`. An allocated payment's invoice then counts that much less paid (its row locked): a " +
        'paid invoice no longer covered by its payments and credit notes is open again (`invoice.reopened`).',
      input: refundInput,
      changes: ['refunds'],
      sets: async ({ amount, reason }, payment, rules) => {
        const left = payment.amount - payment.amountRefunded;
        if (amount > left) {
          throw invalidField(
            'amount',
            `must be at most what is left to refund: ${left} (the amount less earlier refunds)`,
          );
        }
        if (payment.invoiceId) {
          await moveInvoiceBalance(rules, await lockInvoice(rules, payment.invoiceId), { paid: -amount });
        }
        const refund: Refund = { amount, reason, refundedAt: await transactionTime(rules) };
        return { refunds: JSON.stringify([...payment.refunds, refund]) };
      },
      event: event('payment.refunded', 'Part or all of a payment was given back (POST /finance/payments/:id/refund).'),
    },
    allocate: {
      description:
        'Applies an unallocated payment to an open invoice (409 once allocated): in its currency (else 400 naming ' +
        '`invoiceId`), for its net amount (the amount less refunds), at most what the invoice owes (else 400 ' +
        'naming `invoiceId`). When it covers the invoice, the invoice becomes paid (`invoice.paid`).',
      input: allocateInput,
      changes: ['invoiceId'],
      conflict: 'The payment is allocated already, or fully refunded; the invoice is draft or void',
      sets: async ({ invoiceId }, payment, rules) => {
        if (payment.invoiceId) {
          throw new DomainError('CONFLICT', `Payment is allocated already (to ${payment.invoiceId})`, 'invoiceId');
        }
        const net = payment.amount - payment.amountRefunded;
        if (net === 0) throw new DomainError('CONFLICT', 'Payment is fully refunded: nothing to allocate', 'amount');
        const applied = { amount: net, currency: payment.currency };
        await applyToInvoice(rules, invoiceId, applied, allocationRefusals(net, payment.currency));
        return { invoiceId };
      },
      event: event(
        'payment.allocated',
        'An unallocated payment was applied to an invoice (POST /finance/payments/:id/allocate).',
      ),
    },
  },
  rules: {
    async create(values, rules) {
      if (values.invoiceId) {
        const applied = { amount: values.amount as number, currency: values.currency };
        await applyToInvoice(rules, values.invoiceId, applied, createRefusals);
      }
      return { receivedAt: values.receivedAt ?? NOW };
    },
  },
  examples: {
    // Unallocated: a payment needs its invoice open (test/payments.test.ts). At most 100.00, so that the
    // invoice example (150.00) takes its allocation.
    create: (n) => ({
      amount: 100 * (1 + (n % 100)),
      currency: 'EUR',
      method: 'bank_transfer',
      reference: `wire ${n}`,
    }),
    actions: { refund: { amount: 1, reason: 'Duplicate charge' }, allocate: {} },
    actionReferences: { allocate: { invoiceId: { target: invoices, through: ['open'] } } },
  },
});
