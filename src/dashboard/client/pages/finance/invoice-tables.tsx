// An invoice's tables: its lines (discounts and taxes), the payments against it
// and its credit notes, each becoming cards on a narrow screen.
import { BASE } from '../../route.js';
import { formatDateTime, formatMoney, humanize, Link, StatusBadge } from '../../ui.js';
import { rateLabel, type CreditNote, type Invoice, type Payment } from './records.js';

export function LinesTable({ invoice }: { invoice: Invoice }) {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  return (
    <div class="table-wrap">
      <table class="stack-narrow">
        <caption class="visually-hidden">Lines</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" class="number">
              Quantity
            </th>
            <th scope="col" class="number">
              Unit price
            </th>
            <th scope="col" class="number">
              Discount
            </th>
            <th scope="col">Taxes</th>
            <th scope="col" class="number">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, i) => (
            <tr key={i}>
              <td data-label="Description">{line.description}</td>
              <td data-label="Quantity" class="number">
                {line.quantity}
              </td>
              <td data-label="Unit price" class="number">
                {money(line.unitAmount)}
              </td>
              <td data-label="Discount" class="number">
                {line.discount ? (
                  <>
                    −{money(line.discount)}
                    {line.discountPercent && <span class="muted"> ({line.discountPercent} %)</span>}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td data-label="Taxes">
                {line.taxes.length
                  ? line.taxes.map((tax) => (
                      <span class="line-tax" key={tax.taxRateId}>
                        {rateLabel(tax)}: {money(tax.amount)}
                      </span>
                    ))
                  : '—'}
              </td>
              <td data-label="Amount" class="number">
                {money(line.amount)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PaymentsTable({ payments }: { payments: Payment[] }) {
  if (!payments.length) return <p class="muted">No payments yet.</p>;
  return (
    <div class="table-wrap">
      <table class="stack-narrow">
        <caption class="visually-hidden">Payments</caption>
        <thead>
          <tr>
            <th scope="col">Received</th>
            <th scope="col">Method</th>
            <th scope="col">Reference</th>
            <th scope="col" class="number">
              Amount
            </th>
            <th scope="col" class="number">
              Refunded
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id}>
              <td data-label="Received">
                <Link href={`/finance/payments/${payment.id}`}>{formatDateTime(payment.receivedAt)}</Link>
              </td>
              <td data-label="Method">{humanize(payment.method)}</td>
              <td data-label="Reference">{payment.reference ?? '—'}</td>
              <td data-label="Amount" class="number">
                {formatMoney(payment.amount, payment.currency)}
              </td>
              <td data-label="Refunded" class="number">
                {payment.amountRefunded ? formatMoney(payment.amountRefunded, payment.currency) : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CreditNotesTable({ creditNotes }: { creditNotes: CreditNote[] }) {
  if (!creditNotes.length) return <p class="muted">No credit notes.</p>;
  return (
    <div class="table-wrap">
      <table class="stack-narrow">
        <caption class="visually-hidden">Credit notes</caption>
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col">Issued</th>
            <th scope="col" class="number">
              Total
            </th>
            <th scope="col">Document</th>
          </tr>
        </thead>
        <tbody>
          {creditNotes.map((note) => (
            <tr key={note.id}>
              <td data-label="Number">
                <Link href={`/finance/credit-notes/${note.id}`}>{note.number ?? 'Draft'}</Link>
              </td>
              <td data-label="Status">
                <StatusBadge value={note.status} />
              </td>
              <td data-label="Reason">{note.reason}</td>
              <td data-label="Issued">{formatDateTime(note.issuedAt)}</td>
              <td data-label="Total" class="number">
                {formatMoney(note.total, note.currency)}
              </td>
              <td data-label="Document">
                <a href={`${BASE}/finance/credit-notes/${note.id}/pdf`} download>
                  PDF<span class="visually-hidden"> of {note.number ?? 'the draft'}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
