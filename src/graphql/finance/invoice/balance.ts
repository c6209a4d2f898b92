// What moves an invoice's balance: payments (received, allocated, refunded)
// and issued credit notes. Each locks the invoice row (`for update`) for its
// transaction, so changes to one invoice run one after another, each seeing
// the amounts the one before left; then amountPaid and amountCredited move and
// the status follows them: an open invoice they cover becomes paid
// (`invoice.paid`, so exactly once), a paid one they no longer cover (a refund)
// opens again (`invoice.reopened`). The invoice is written through the kit's
// write path (updateRecordFromRule): its row and events commit with the change
// that caused them, or not at all.
import { DomainError, invalidField } from '../../../errors.js';
import { sqlSelectOf } from '../../kit/field-sql.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import { previousAttributes } from '../../kit/records.js';
import { updateRecordFromRule } from '../../kit/store.js';
import { invoicePaid, invoiceReopened, invoices } from './index.js';
import { Invoice } from './type.js';

/** The organization's invoice, locked until commit; a 400 naming `field` when there is none. */
export async function lockInvoice(rules: RuleContext, id: unknown, field = 'invoiceId'): Promise<Invoice> {
  const [invoice] = await rules.query<Invoice>(
    `select ${sqlSelectOf(Invoice, 'Invoice')} from "Invoice" where id = $1 and "organizationId" = $2 for update`,
    [id, rules.organizationId],
  );
  if (!invoice) throw invalidField(field, 'no invoice with this id in the organization');
  return invoice;
}

/** 409 naming `field` unless the invoice is in one of `states` (what `doing` needs). */
export function requireInvoiceIn(invoice: Invoice, states: readonly Invoice['status'][], doing: string, field: string) {
  if (!states.includes(invoice.status)) {
    throw new DomainError(
      'CONFLICT',
      `Invoice is ${invoice.status}; ${doing} needs it to be ${states.join(' or ')}`,
      field,
    );
  }
}

/**
 * Moves the locked invoice's amountPaid by `paid` and amountCredited by
 * `credited` (either may be negative), and its status with them; answers the
 * invoice as it is then.
 */
export async function moveInvoiceBalance(
  rules: RuleContext,
  invoice: Invoice,
  { paid = 0, credited = 0 }: { paid?: number; credited?: number },
): Promise<Invoice> {
  const changes: Record<string, unknown> = {};
  if (paid) changes.amountPaid = invoice.amountPaid + paid;
  if (credited) changes.amountCredited = invoice.amountCredited + credited;
  const covered = invoice.amountPaid + paid + invoice.amountCredited + credited >= invoice.total;
  let raised: string | undefined;
  if (invoice.status === 'open' && covered) [changes.status, raised] = ['paid', invoicePaid.type];
  if (invoice.status === 'paid' && !covered) [changes.status, raised] = ['open', invoiceReopened.type];
  const events = raised
    ? [{ type: raised, previousAttributes: previousAttributes(invoice, Object.keys(changes)) }]
    : [];
  return (await updateRecordFromRule(rules, invoices.resource, { id: invoice.id, changes, events }))!;
}
