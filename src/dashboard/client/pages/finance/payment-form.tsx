// Record payment on an open invoice: the amount (the amount due unless
// changed), how and when it was received, the payer's reference. The server
// refuses more than is due (400 on amount), shown beside the field. Before it
// is saved, the form says which events the payment would raise (a dry run of
// the same mutation): invoice.paid when it settles the invoice.
import { useState } from 'preact/hooks';
import { ApiError, graphql } from '../../api.js';
import { ErrorMessage, Field, Select, useSubmit } from '../../ui.js';
import { useWouldRaise, WouldRaise } from '../../would-raise.js';
import { fromMinorUnits, toMinorUnits } from '../data/money.js';
import { withoutFieldName } from './draft.js';
import type { Invoice } from './records.js';
import { ActionPanel } from './action-panel.js';

const CREATE = `mutation RecordPayment($input: CreatePaymentInput!) { createPayment(input: $input) { id } }`;

export const PAYMENT_METHODS = [
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'card', label: 'Card' },
  { value: 'cash', label: 'Cash' },
  { value: 'other', label: 'Other' },
];

/** Today in the viewer's calendar: YYYY-MM-DD. */
export const today = () => new Date().toLocaleDateString('sv');

/**
 * The instant a payment received on `day` is recorded at: now for today, else
 * noon UTC of that day, which is that day in the API's UTC-day filters and in
 * nearly every time zone.
 */
export const receivedAtOf = (day: string) => (day === today() ? undefined : `${day}T12:00:00.000Z`);

/** An amount typed in major units as minor units; a 400 naming `field` when it is not one. */
export function amountOf(text: string, currency: string, field = 'amount'): number {
  const amount = toMinorUnits(text, currency);
  if (amount === undefined || amount <= 0) {
    throw new ApiError('must be a positive amount, e.g. 50.00', 'VALIDATION_ERROR', field);
  }
  return amount;
}

/** The payment the form's values describe, as createPayment takes it; a 400 on amount when it is not one. */
function paymentInput(form: HTMLFormElement, invoice: Invoice): Record<string, unknown> {
  const data = new FormData(form);
  const day = String(data.get('receivedOn') ?? '') || today();
  const reference = String(data.get('reference') ?? '').trim();
  return {
    invoiceId: invoice.id,
    amount: amountOf(String(data.get('amount') ?? ''), invoice.currency),
    currency: invoice.currency,
    method: String(data.get('method') ?? ''),
    receivedAt: receivedAtOf(day),
    ...(reference && { reference }),
  };
}

export function PaymentForm({
  invoice,
  onDone,
  onCancel,
}: {
  invoice: Invoice;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [method, setMethod] = useState('bank_transfer');
  const { raised, preview } = useWouldRaise(CREATE);
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    await graphql(CREATE, { input: paymentInput(form, invoice) });
    onDone();
  });
  const error = (field: string) => {
    const message = fieldError(field);
    return message && withoutFieldName(message, field);
  };
  return (
    <ActionPanel
      title="Record payment"
      submitLabel="Save payment"
      busy={busy}
      onSubmit={(form) => void submit(form)}
      onCancel={onCancel}
      onEdit={(form) => preview(() => ({ input: paymentInput(form, invoice) }))}
    >
      <ErrorMessage error={formError(['amount', 'method', 'receivedAt', 'reference'])} />
      <Field
        label="Amount"
        name="amount"
        inputMode="decimal"
        defaultValue={fromMinorUnits(invoice.amountDue, invoice.currency)}
        hint={`In ${invoice.currency}; the amount due unless the customer paid part of it.`}
        required
        error={error('amount')}
      />
      <Select
        label="Method"
        name="method"
        options={PAYMENT_METHODS}
        value={method}
        onChange={(event) => setMethod(event.currentTarget.value)}
        error={error('method')}
      />
      <Field label="Received on" name="receivedOn" type="date" defaultValue={today()} error={error('receivedAt')} />
      <Field label="Reference" name="reference" hint="The payer's or bank's reference" error={error('reference')} />
      <WouldRaise raised={raised} />
    </ActionPanel>
  );
}
