// New invoice and a draft's edit: the contact (searchable picker), currency,
// dates and terms, the lines, and the totals computed as you type by the
// server's own pricing (lines-editor.tsx). Saving sends the lines as typed;
// the server prices them again, the same way.
import { useMemo, useState } from 'preact/hooks';
import { ApiError, graphql } from '../../api.js';
import { CONTACTS, RecordPicker } from '../../picker.js';
import { navigate } from '../../route.js';
import { can, type PageProps } from '../../section.js';
import { ErrorMessage, Field, Link, Loaded, PageHeader, useQuery, useSubmit } from '../../ui.js';
import { draftOf, emptyLine, priceDraft, withoutFieldName, type DraftLine, type TaxRateTerms } from './draft.js';
import { LinesEditor, Totals } from './lines-editor.js';
import { ACTIVE_TAX_RATES, INVOICE_FIELDS, ratesOf, uniqueRates, type Invoice, type TaxRates } from './records.js';

const CREATE = `mutation CreateInvoice($input: CreateInvoiceInput!) { createInvoice(input: $input) { id } }`;
const UPDATE = `mutation UpdateInvoice($id: ID!, $input: UpdateInvoiceInput!) { updateInvoice(id: $id, input: $input) { id } }`;
/** The currency of the newest invoice: a new one most likely takes it too. */
const LAST_CURRENCY = `query LastInvoiceCurrency { invoices(limit: 1, sort: createdAt_desc) { data { currency } } }`;

export function NewInvoicePage({ viewer }: PageProps) {
  const rates = useQuery<TaxRates>(ACTIVE_TAX_RATES);
  const last = useQuery<{ invoices: { data: { currency: string }[] } }>(LAST_CURRENCY);
  return (
    <>
      <PageHeader title="New invoice" />
      <Loaded query={rates}>
        {({ taxRates }) =>
          last.loading && !last.data ? null : (
            <InvoiceForm
              rates={taxRates.data}
              currency={last.data?.invoices.data[0]?.currency ?? 'EUR'}
              canPickContact={can(viewer, 'crm:read')}
            />
          )
        }
      </Loaded>
    </>
  );
}

export function EditInvoicePage({ viewer, params }: PageProps) {
  const rates = useQuery<TaxRates>(ACTIVE_TAX_RATES);
  const invoice = useQuery<{ invoice: Invoice }>(
    `query EditedInvoice($id: ID!) { invoice(id: $id) { ${INVOICE_FIELDS} } }`,
    {
      id: params.id,
    },
  );
  return (
    <Loaded query={invoice}>
      {({ invoice }) => (
        <>
          <PageHeader title={`Edit ${invoice.number}`} />
          {invoice.status !== 'draft' ? (
            <p class="notice">
              Only a draft can be edited; {invoice.number} is {invoice.status}.{' '}
              <Link href={`/finance/invoices/${invoice.id}`}>Back to the invoice</Link>
            </p>
          ) : (
            <Loaded query={rates}>
              {({ taxRates }) => (
                <InvoiceForm
                  invoice={invoice}
                  // A rate the draft uses stays choosable though deactivated since (the server keeps it too).
                  rates={uniqueRates(taxRates.data, ratesOf(invoice.taxes))}
                  currency={invoice.currency}
                  canPickContact={can(viewer, 'crm:read')}
                />
              )}
            </Loaded>
          )}
        </>
      )}
    </Loaded>
  );
}

/** The header fields as typed. */
interface Header {
  contactId: string;
  currency: string;
  number: string;
  issueDate: string;
  dueDate: string;
  paymentTermsDays: string;
  notes: string;
}

function headerOf(invoice: Invoice | undefined, currency: string): Header {
  return {
    contactId: invoice?.contactId ?? '',
    currency,
    number: invoice?.number ?? '',
    issueDate: invoice?.issueDate ?? '',
    dueDate: invoice?.dueDate ?? '',
    paymentTermsDays: invoice ? String(invoice.paymentTermsDays) : '',
    notes: invoice?.notes ?? '',
  };
}

/**
 * What to send: on a create the fields given; on an edit the fields changed
 * (so a new issue date alone moves the due date with it, as the API does), an
 * emptied one as null (back to its default).
 */
function headerInput(header: Header, before: Header | undefined): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(header) as [keyof Header, string][]) {
    const text = value.trim();
    if (before && text === before[name].trim()) continue;
    if (!text) {
      if (before && name !== 'contactId' && name !== 'currency') input[name] = null;
      continue;
    }
    if (name === 'paymentTermsDays') {
      if (!/^\d+$/.test(text)) throw new ApiError('must be a whole number of days, e.g. 30', 'VALIDATION_ERROR', name);
      input[name] = Number(text);
    } else input[name] = name === 'currency' ? text.toUpperCase() : text;
  }
  return input;
}

function InvoiceForm({
  invoice,
  rates,
  currency: initialCurrency,
  canPickContact,
}: {
  invoice?: Invoice;
  /** The rates a line may name: the active ones, and on an edit those the draft uses. */
  rates: readonly TaxRateTerms[];
  currency: string;
  canPickContact: boolean;
}) {
  const before = useMemo(() => (invoice ? headerOf(invoice, invoice.currency) : undefined), [invoice]);
  const [header, setHeader] = useState<Header>(() => headerOf(invoice, initialCurrency));
  const [lines, setLines] = useState<DraftLine[]>(() =>
    invoice ? invoice.lines.map((line) => draftOf(line, invoice.currency)) : [emptyLine()],
  );
  const currency = /^[A-Za-z]{3}$/.test(header.currency.trim()) ? header.currency.trim().toUpperCase() : 'XXX';
  const { inputs, priced, errors } = priceDraft(lines, currency, rates);
  const { submit, busy, error, fieldError, formError } = useSubmit(async () => {
    if (!inputs || !priced) throw new ApiError('Fix the marked fields of the lines first.', 'VALIDATION_ERROR');
    const input = { ...headerInput(header, before), lines: inputs };
    if (invoice) {
      await graphql(UPDATE, { id: invoice.id, input });
      navigate(`/finance/invoices/${invoice.id}`);
    } else {
      const { createInvoice } = await graphql<{ createInvoice: { id: string } }>(CREATE, { input });
      navigate(`/finance/invoices/${createInvoice.id}`);
    }
  });
  const set = (name: keyof Header) => ({
    name,
    value: header[name],
    onInput: (event: Event) => setHeader({ ...header, [name]: (event.currentTarget as HTMLInputElement).value }),
    error: message(name),
  });
  // A server error about a line's field shows beside it; the editor's own checks come first.
  function message(name: string): string | undefined {
    const server = fieldError(name);
    return errors[name] ?? (server && withoutFieldName(server, name));
  }
  const lineErrors = { ...errors };
  if (error?.field?.startsWith('lines.') && !lineErrors[error.field]) {
    lineErrors[error.field] = withoutFieldName(error.message, error.field);
  }
  const shownElsewhere = [...Object.keys(header), ...Object.keys(lineErrors)];
  return (
    <form
      class="stacked invoice-editor"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <ErrorMessage error={formError(shownElsewhere)} />
      <div class="invoice-header">
        <RecordPicker
          label="Contact"
          name="contactId"
          source={CONTACTS}
          value={header.contactId}
          required
          onChange={(option) => setHeader((current) => ({ ...current, contactId: option?.id ?? '' }))}
          error={message('contactId')}
          hint={
            canPickContact
              ? undefined
              : 'Choosing a contact needs the crm:read scope, which your account does not hold.'
          }
        />
        <Field label="Currency" {...set('currency')} maxLength={3} required hint="ISO 4217 code, e.g. EUR" />
        <Field label="Number" {...set('number')} hint="Empty: the next number (INV-000001, …)" />
        <Field label="Issue date" type="date" {...set('issueDate')} hint="Empty: today" />
        <Field
          label="Payment terms (days)"
          inputMode="numeric"
          {...set('paymentTermsDays')}
          hint="Empty: the contact's terms, else the organization's"
        />
        <Field label="Due date" type="date" {...set('dueDate')} hint="Empty: the issue date plus the terms" />
      </div>
      <h2>Lines</h2>
      <LinesEditor
        lines={lines}
        onChange={setLines}
        currency={currency}
        rates={rates}
        errors={lineErrors}
        priced={priced}
      />
      <Totals totals={priced} currency={currency} />
      {!priced && <p class="muted">The totals show once every line's numbers are valid.</p>}
      <div class="field">
        <label for="field-notes">Notes</label>
        <textarea
          id="field-notes"
          name="notes"
          rows={3}
          value={header.notes}
          onInput={(event) => setHeader({ ...header, notes: event.currentTarget.value })}
        />
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {invoice ? 'Save invoice' : 'Create invoice'}
        </button>
        <Link class="button secondary" href={invoice ? `/finance/invoices/${invoice.id}` : '/finance/invoices'}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
