// A payment: amount, method, when, reference, the invoice it pays (or
// unallocated), its refunds; `Refund` (an amount, at most what is left, and a
// reason) and `Allocate` (an unallocated payment to an open invoice in its
// currency), each disabled with the reason when the payment does not allow it.
import { RecordHistory } from '../../records/history.js';
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { RecordPicker, type PickerSource } from '../../picker.js';
import { can, type PageProps, type Viewer } from '../../section.js';
import {
  ErrorMessage,
  Field,
  formatDate,
  formatDateTime,
  formatMoney,
  humanize,
  Link,
  Loaded,
  PageHeader,
  StatusBadge,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { fromMinorUnits } from '../data/money.js';
// One action button for every desk (the HR desk's), so they look and read alike.
import { ActionButton } from '../../action-button.js';
import { withoutFieldName } from './draft.js';
import { amountOf } from './payment-form.js';
import { ActionPanel } from './action-panel.js';
import { PAYMENT_FIELDS, type Payment } from './records.js';

type PaymentWithInvoice = Payment & {
  invoice: { id: string; number: string; status: string; amountDue: number; currency: string } | null;
};

const PAYMENT = `query PaymentPage($id: ID!) {
  payment(id: $id) { ${PAYMENT_FIELDS} invoice { id number status amountDue currency } }
}`;

/** Invoices to allocate to: by number, with what tells them apart (status, due, date). */
export const INVOICES: PickerSource = {
  field: 'invoices',
  one: 'invoice',
  selection: 'number status currency amountDue dueDate',
  search: true,
  describe: (row) => ({
    label: String(row.number),
    detail: `${humanize(String(row.status))} · due ${formatMoney(Number(row.amountDue), String(row.currency))} · ${formatDate(
      String(row.dueDate),
    )}`,
  }),
};

export function paymentActionReasons(payment: Payment) {
  const left = payment.amount - payment.amountRefunded;
  return {
    refund: left <= 0 ? 'Everything received has been refunded.' : undefined,
    allocate: payment.invoiceId
      ? 'Only an unallocated payment can be allocated; this one pays an invoice.'
      : left <= 0
        ? 'A fully refunded payment has nothing to allocate.'
        : undefined,
  };
}

export function PaymentPage({ viewer, params }: PageProps) {
  const result = useQuery<{ payment: PaymentWithInvoice }>(PAYMENT, { id: params.id });
  return (
    <Loaded query={result}>
      {({ payment }) => <PaymentView payment={payment} viewer={viewer} reload={result.reload} />}
    </Loaded>
  );
}

function PaymentView({ payment, viewer, reload }: { payment: PaymentWithInvoice; viewer: Viewer; reload: () => void }) {
  const [panel, setPanel] = useState<'refund' | 'allocate'>();
  const reasons = paymentActionReasons(payment);
  const cannotWrite = can(viewer, 'finance:write')
    ? undefined
    : 'Needs the finance:write scope, which your account does not hold.';
  const money = (amount: number) => formatMoney(amount, payment.currency);
  const done = () => {
    setPanel(undefined);
    reload();
  };
  return (
    <>
      <PageHeader title={`Payment of ${money(payment.amount)}`} />
      <div class="action-bar" role="group" aria-label="Actions">
        <ActionButton
          class="secondary"
          disabledReason={cannotWrite ?? reasons.refund}
          onClick={() => setPanel(panel === 'refund' ? undefined : 'refund')}
        >
          Refund
        </ActionButton>
        <ActionButton
          class="secondary"
          disabledReason={cannotWrite ?? reasons.allocate}
          onClick={() => setPanel(panel === 'allocate' ? undefined : 'allocate')}
        >
          Allocate
        </ActionButton>
      </div>
      {panel === 'refund' && <RefundForm payment={payment} onDone={done} onCancel={() => setPanel(undefined)} />}
      {panel === 'allocate' && <AllocateForm payment={payment} onDone={done} onCancel={() => setPanel(undefined)} />}
      <dl class="facts panel">
        <dt>Invoice</dt>
        <dd>
          {payment.invoice ? (
            <>
              <Link href={`/finance/invoices/${payment.invoice.id}`}>{payment.invoice.number}</Link>{' '}
              <StatusBadge value={payment.invoice.status} />
            </>
          ) : (
            'Unallocated'
          )}
        </dd>
        <dt>Amount</dt>
        <dd>{money(payment.amount)}</dd>
        <dt>Refunded</dt>
        <dd>{money(payment.amountRefunded)}</dd>
        <dt>Method</dt>
        <dd>{humanize(payment.method)}</dd>
        <dt>Received</dt>
        <dd>{formatDateTime(payment.receivedAt)}</dd>
        <dt>Reference</dt>
        <dd>{payment.reference ?? '—'}</dd>
      </dl>
      <h2>Refunds</h2>
      {payment.refunds.length ? (
        <div class="table-wrap">
          <table class="stack-narrow">
            <caption class="visually-hidden">Refunds</caption>
            <thead>
              <tr>
                <th scope="col">Refunded</th>
                <th scope="col">Reason</th>
                <th scope="col" class="number">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {[...payment.refunds].reverse().map((refund) => (
                <tr key={refund.refundedAt}>
                  <td data-label="Refunded">{formatDateTime(refund.refundedAt)}</td>
                  <td data-label="Reason">{refund.reason}</td>
                  <td data-label="Amount" class="number">
                    {money(refund.amount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">No refunds.</p>
      )}
      {/* Read again after a refund or an allocation: the history then holds it. */}
      <RecordHistory objectId={payment.id} key={`${payment.amountRefunded}:${payment.invoiceId}`} />
      <p>
        <Link href="/finance/payments">Back to payments</Link>
      </p>
    </>
  );
}

function RefundForm({ payment, onDone, onCancel }: { payment: Payment; onDone: () => void; onCancel: () => void }) {
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const data = new FormData(form);
    await graphql(
      `
        mutation Refund($id: ID!, $input: RefundPaymentInput!) {
          refundPayment(id: $id, input: $input) {
            id
          }
        }
      `,
      {
        id: payment.id,
        input: {
          amount: amountOf(String(data.get('amount') ?? ''), payment.currency),
          reason: String(data.get('reason') ?? '').trim(),
        },
      },
    );
    onDone();
  });
  const message = (field: string) => {
    const text = fieldError(field);
    return text && withoutFieldName(text, field);
  };
  return (
    <ActionPanel
      title="Refund"
      submitLabel="Save refund"
      busy={busy}
      onSubmit={(form) => void submit(form)}
      onCancel={onCancel}
    >
      <ErrorMessage error={formError(['amount', 'reason'])} />
      <Field
        label="Amount"
        name="amount"
        inputMode="decimal"
        defaultValue={fromMinorUnits(payment.amount - payment.amountRefunded, payment.currency)}
        hint={`In ${payment.currency}; at most what is left of the payment`}
        required
        error={message('amount')}
      />
      <Field label="Reason" name="reason" required error={message('reason')} />
    </ActionPanel>
  );
}

function AllocateForm({ payment, onDone, onCancel }: { payment: Payment; onDone: () => void; onCancel: () => void }) {
  const [invoiceId, setInvoiceId] = useState('');
  const { submit, busy, fieldError, formError } = useSubmit(async () => {
    await graphql(
      `
        mutation Allocate($id: ID!, $input: AllocatePaymentInput!) {
          allocatePayment(id: $id, input: $input) {
            id
          }
        }
      `,
      { id: payment.id, input: { invoiceId } },
    );
    onDone();
  });
  const message = fieldError('invoiceId');
  return (
    <ActionPanel
      title="Allocate"
      submitLabel="Save allocation"
      busy={busy}
      onSubmit={() => void submit()}
      onCancel={onCancel}
    >
      <ErrorMessage error={formError(['invoiceId'])} />
      <RecordPicker
        label="Invoice"
        name="invoiceId"
        source={INVOICES}
        value={invoiceId}
        required
        onChange={(option) => setInvoiceId(option?.id ?? '')}
        hint={`An open invoice in ${payment.currency} owing at least ${formatMoney(
          payment.amount - payment.amountRefunded,
          payment.currency,
        )}`}
        error={message && withoutFieldName(message, 'invoiceId')}
      />
    </ActionPanel>
  );
}
