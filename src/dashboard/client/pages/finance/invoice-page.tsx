// An invoice as the accountant works it: number, contact, dates, status (and
// overdue), the lines with their discounts and taxes, the totals and what is
// paid, credited and due; the payments and credit notes against it; and its
// actions, each disabled with the reason when the state does not allow it:
// Open, Void, Record payment, Issue credit note, Edit (a draft), Download PDF.
import { RecordHistory } from '../../records/history.js';
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { BASE } from '../../route.js';
import { can, type PageProps, type Viewer } from '../../section.js';
import {
  asApiError,
  ErrorMessage,
  formatDate,
  formatMoney,
  Link,
  Loaded,
  PageHeader,
  StatusBadge,
  useQuery,
} from '../../ui.js';
import type { ApiError } from '../../api.js';
// One action button for every desk (the HR desk's), so they look and read alike.
import { ActionButton } from '../../action-button.js';
import { CreditNoteForm } from './credit-note-form.js';
import { CreditNotesTable, LinesTable, PaymentsTable } from './invoice-tables.js';
import { Totals } from './lines-editor.js';
import { PaymentForm } from './payment-form.js';
import {
  CONTACT_FIELDS,
  contactName,
  CREDIT_NOTE_FIELDS,
  INVOICE_FIELDS,
  PAYMENT_FIELDS,
  type Contact,
  type CreditNote,
  type Invoice,
  type Payment,
} from './records.js';

type InvoiceWithRelated = Invoice & {
  contact?: Contact | null;
  payments: { data: Payment[] };
  creditNotes: { data: CreditNote[] };
};

const invoiceQuery = (withContact: boolean) => `query InvoicePage($id: ID!) {
  invoice(id: $id) {
    ${INVOICE_FIELDS} ${withContact ? CONTACT_FIELDS : ''}
    payments(limit: 100) { data { ${PAYMENT_FIELDS} } }
    creditNotes(limit: 100) { data { ${CREDIT_NOTE_FIELDS} } }
  }
}`;

const WRITE = 'finance:write';
const noWrite = (viewer: Viewer) =>
  can(viewer, WRITE) ? undefined : 'Needs the finance:write scope, which your account does not hold.';

/** Why each action cannot be done now (undefined: it can), as the API would refuse it. */
export function invoiceActionReasons(invoice: Invoice) {
  const creditable = invoice.total - invoice.amountCredited;
  return {
    open: invoice.status === 'draft' ? undefined : 'Only a draft invoice can be opened.',
    void: !['draft', 'open'].includes(invoice.status)
      ? 'Only a draft or open invoice can be voided.'
      : invoice.amountPaid > 0 || invoice.amountCredited > 0
        ? 'An invoice with payments or credit notes cannot be voided.'
        : undefined,
    payment:
      invoice.status !== 'open'
        ? invoice.status === 'paid'
          ? 'Nothing is due on a paid invoice.'
          : 'Only an open invoice takes payments.'
        : undefined,
    credit: !['open', 'paid'].includes(invoice.status)
      ? 'Only an open or paid invoice can be credited.'
      : creditable <= 0
        ? 'The invoice is credited in full.'
        : undefined,
  };
}

export function InvoicePage({ viewer, params }: PageProps) {
  const result = useQuery<{ invoice: InvoiceWithRelated }>(invoiceQuery(can(viewer, 'crm:read')), { id: params.id });
  return (
    <Loaded query={result}>
      {({ invoice }) => <InvoiceView invoice={invoice} viewer={viewer} reload={result.reload} />}
    </Loaded>
  );
}

type Panel = 'payment' | 'credit' | undefined;

function InvoiceView({ invoice, viewer, reload }: { invoice: InvoiceWithRelated; viewer: Viewer; reload: () => void }) {
  const [panel, setPanel] = useState<Panel>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const reasons = invoiceActionReasons(invoice);
  const cannotWrite = noWrite(viewer);
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const run = async (mutation: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await graphql(`mutation InvoiceAction($id: ID!) { ${mutation}(id: $id) { id } }`, { id: invoice.id });
      reload();
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (which: Panel) => setPanel(panel === which ? undefined : which);
  const done = () => {
    setPanel(undefined);
    reload();
  };
  return (
    <>
      <PageHeader title={`Invoice ${invoice.number}`}>
        {invoice.status === 'draft' && can(viewer, WRITE) && (
          <Link class="button secondary" href={`/finance/invoices/${invoice.id}/edit`}>
            Edit
          </Link>
        )}
        <a class="button secondary" href={`${BASE}/finance/invoices/${invoice.id}/pdf`} download>
          Download PDF
        </a>
      </PageHeader>
      <p class="invoice-state">
        <StatusBadge value={invoice.status} />
        {invoice.overdue && <StatusBadge value="overdue" />}
      </p>
      <div class="action-bar" role="group" aria-label="Actions" aria-busy={busy}>
        <ActionButton disabledReason={cannotWrite ?? reasons.open} onClick={() => void run('openInvoice')}>
          Open
        </ActionButton>
        <ActionButton
          class="danger"
          disabledReason={cannotWrite ?? reasons.void}
          confirm={`Void ${invoice.number}? Nothing will be due on it.`}
          onClick={() => void run('voidInvoice')}
        >
          Void
        </ActionButton>
        <ActionButton
          class="secondary"
          disabledReason={cannotWrite ?? reasons.payment}
          onClick={() => toggle('payment')}
        >
          Record payment
        </ActionButton>
        <ActionButton class="secondary" disabledReason={cannotWrite ?? reasons.credit} onClick={() => toggle('credit')}>
          Issue credit note
        </ActionButton>
      </div>
      <ErrorMessage error={error} />
      {panel === 'payment' && <PaymentForm invoice={invoice} onDone={done} onCancel={() => setPanel(undefined)} />}
      {panel === 'credit' && <CreditNoteForm invoice={invoice} onDone={done} onCancel={() => setPanel(undefined)} />}
      <dl class="facts panel">
        <dt>Contact</dt>
        <dd>
          {invoice.contact ? (
            <Link href={`/crm/contacts/${invoice.contact.id}`}>{contactName(invoice.contact)}</Link>
          ) : (
            <code>{invoice.contactId}</code>
          )}
        </dd>
        <dt>Issue date</dt>
        <dd>{formatDate(invoice.issueDate)}</dd>
        <dt>Due date</dt>
        <dd>
          {formatDate(invoice.dueDate)} <span class="muted">({invoice.paymentTermsDays} days)</span>
        </dd>
        <dt>Currency</dt>
        <dd>{invoice.currency}</dd>
        {invoice.notes && (
          <>
            <dt>Notes</dt>
            <dd class="notes">{invoice.notes}</dd>
          </>
        )}
      </dl>
      <h2>Lines</h2>
      <LinesTable invoice={invoice} />
      <Totals totals={invoice} currency={invoice.currency}>
        <tr>
          <th scope="row">Paid</th>
          <td class="number">{money(invoice.amountPaid)}</td>
        </tr>
        <tr>
          <th scope="row">Credited</th>
          <td class="number">{money(invoice.amountCredited)}</td>
        </tr>
        <tr class="total">
          <th scope="row">Amount due</th>
          <td class="number">{money(invoice.amountDue)}</td>
        </tr>
        {invoice.creditBalance > 0 && (
          <tr>
            <th scope="row">Owed back to the contact</th>
            <td class="number">{money(invoice.creditBalance)}</td>
          </tr>
        )}
      </Totals>
      <h2>Payments</h2>
      <PaymentsTable payments={invoice.payments.data} />
      <h2>Credit notes</h2>
      <CreditNotesTable creditNotes={invoice.creditNotes.data} />
      {/* Read again after each change (updatedAt moves): the history then holds it. */}
      <RecordHistory objectId={invoice.id} key={invoice.updatedAt} />
      <p>
        <Link href="/finance/invoices">Back to invoices</Link>
      </p>
    </>
  );
}
