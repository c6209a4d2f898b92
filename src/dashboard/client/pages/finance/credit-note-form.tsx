// Issue credit note on an open or paid invoice: lines (the invoice's to start
// with, priced as you type by the server's own pricing, with only the rates the
// invoice charged) or a plain amount, and a reason; then the draft is created
// and issued. When the issue is refused, the draft stays, and the form says so;
// issuing again saves the form into that draft first.
import { useState } from 'preact/hooks';
import { ApiError, graphql } from '../../api.js';
import { ErrorMessage, Field, formatMoney, Link, useSubmit } from '../../ui.js';
import { draftOf, priceDraft, withoutFieldName, type DraftLine } from './draft.js';
import { LinesEditor, Totals } from './lines-editor.js';
import { amountOf } from './payment-form.js';
import { ActionPanel } from './action-panel.js';
import { ratesOf, type Invoice } from './records.js';

const CREATE = `mutation DraftCreditNote($input: CreateCreditNoteInput!) { createCreditNote(input: $input) { id } }`;
const UPDATE = `mutation UpdateCreditNote($id: ID!, $input: UpdateCreditNoteInput!) { updateCreditNote(id: $id, input: $input) { id } }`;
const ISSUE = `mutation IssueCreditNote($id: ID!) { issueCreditNote(id: $id) { id number } }`;

type Mode = 'lines' | 'amount';

export function CreditNoteForm({
  invoice,
  onDone,
  onCancel,
}: {
  invoice: Invoice;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [mode, setMode] = useState<Mode>('lines');
  const [lines, setLines] = useState<DraftLine[]>(() => invoice.lines.map((line) => draftOf(line, invoice.currency)));
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('');
  const [draftId, setDraftId] = useState<string>();
  const rates = ratesOf(invoice.taxes);
  const { inputs, priced, errors } = priceDraft(lines, invoice.currency, rates);
  const left = invoice.total - invoice.amountCredited;
  const { submit, busy, error, fieldError, formError } = useSubmit(async () => {
    const credited =
      mode === 'amount'
        ? { amount: amountOf(amount, invoice.currency) }
        : { lines: inputs ?? fail('Fix the marked fields of the lines first.') };
    let id = draftId;
    if (id) await graphql(UPDATE, { id, input: { reason: reason.trim(), ...credited } });
    else {
      const { createCreditNote } = await graphql<{ createCreditNote: { id: string } }>(CREATE, {
        input: { invoiceId: invoice.id, reason: reason.trim(), ...credited },
      });
      id = createCreditNote.id;
      setDraftId(id);
    }
    await graphql(ISSUE, { id });
    onDone();
  });
  const lineErrors = { ...errors };
  if (error?.field?.startsWith('lines.') && !lineErrors[error.field]) {
    lineErrors[error.field] = withoutFieldName(error.message, error.field);
  }
  const message = (field: string) => {
    const text = fieldError(field);
    return text && withoutFieldName(text, field);
  };
  return (
    <ActionPanel
      title="Issue credit note"
      submitLabel="Issue"
      busy={busy}
      onSubmit={() => void submit()}
      onCancel={onCancel}
    >
      {draftId && (
        <p class="notice" role="status">
          The draft credit note is saved but not issued yet.{' '}
          <Link href={`/finance/credit-notes/${draftId}`}>Open the draft</Link>, or correct this form and issue again.
        </p>
      )}
      <ErrorMessage error={formError(['reason', 'amount', ...Object.keys(lineErrors)])} />
      <Field
        label="Reason"
        name="reason"
        value={reason}
        onInput={(event) => setReason(event.currentTarget.value)}
        required
        error={message('reason')}
      />
      <fieldset class="checks">
        <legend>Credit</legend>
        <label>
          <input type="radio" name="mode" value="lines" checked={mode === 'lines'} onChange={() => setMode('lines')} />
          <span>Lines</span>
        </label>
        <label>
          <input
            type="radio"
            name="mode"
            value="amount"
            checked={mode === 'amount'}
            onChange={() => setMode('amount')}
          />
          <span>An amount</span>
        </label>
      </fieldset>
      <p class="muted">Left to credit on this invoice: {formatMoney(left, invoice.currency)}.</p>
      {mode === 'amount' ? (
        <Field
          label="Amount"
          name="amount"
          inputMode="decimal"
          value={amount}
          onInput={(event) => setAmount(event.currentTarget.value)}
          hint={`In ${invoice.currency}, no tax`}
          required
          error={message('amount')}
        />
      ) : (
        <>
          <LinesEditor
            lines={lines}
            onChange={setLines}
            currency={invoice.currency}
            rates={rates}
            errors={lineErrors}
            priced={priced}
          />
          <Totals totals={priced} currency={invoice.currency} caption="Credit note totals" />
          {message('lines') && <p class="field-error">{message('lines')}</p>}
        </>
      )}
    </ActionPanel>
  );
}

function fail(message: string): never {
  throw new ApiError(message, 'VALIDATION_ERROR');
}
