// Receivables aging (GraphQL receivablesAging): what open invoices still owe,
// per currency, by contact and by days past due, as of a day (today unless
// chosen; kept in the URL, so a report can be linked).
import { setQuery, useLocation } from '../../route.js';
import { can, type PageProps } from '../../section.js';
import { Field, formatDate, formatMoney, Link, Loaded, PageHeader, useQuery } from '../../ui.js';

interface Buckets {
  current: number;
  days1to30: number;
  days31to60: number;
  days61to90: number;
  over90: number;
}

interface AgingCurrency {
  currency: string;
  total: number;
  buckets: Buckets;
  contacts: { contactId: string; contactName: string; total: number; buckets: Buckets }[];
}

const BUCKETS = 'buckets { current days1to30 days31to60 days61to90 over90 }';
const AGING = `query ReceivablesAging($asOf: Date) {
  receivablesAging(asOf: $asOf) { asOf currencies { currency total ${BUCKETS} contacts { contactId contactName total ${BUCKETS} } } }
}`;

const COLUMNS: [keyof Buckets, string][] = [
  ['current', 'Current'],
  ['days1to30', '1–30 days'],
  ['days31to60', '31–60 days'],
  ['days61to90', '61–90 days'],
  ['over90', 'Over 90 days'],
];

export function AgingPage({ viewer }: PageProps) {
  const { query } = useLocation();
  const asOf = query.get('asOf') ?? undefined;
  const result = useQuery<{ receivablesAging: { asOf: string; currencies: AgingCurrency[] } }>(AGING, { asOf });
  return (
    <>
      <PageHeader title="Receivables aging">
        <Link class="button secondary" href="/finance/invoices?overdue=true">
          Overdue invoices
        </Link>
      </PageHeader>
      <form class="toolbar" role="search" aria-label="Report date" onSubmit={(event) => event.preventDefault()}>
        <Field
          label="As of"
          name="asOf"
          type="date"
          value={asOf ?? ''}
          onChange={(event) => setQuery({ asOf: event.currentTarget.value })}
          hint="Empty: today in the organization's time zone"
        />
      </form>
      <Loaded query={result}>
        {({ receivablesAging: report }) => (
          <>
            <p class="muted">
              What the open invoices issued by {formatDate(report.asOf)} still owe, by days past their due date on that
              day.
            </p>
            {report.currencies.length ? (
              report.currencies.map((currency) => (
                <CurrencyTable key={currency.currency} aging={currency} linkContacts={can(viewer, 'crm:read')} />
              ))
            ) : (
              <p class="empty">Nothing is owed: no open invoice has an amount due.</p>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

function CurrencyTable({ aging, linkContacts }: { aging: AgingCurrency; linkContacts: boolean }) {
  const money = (amount: number) => (amount ? formatMoney(amount, aging.currency) : '—');
  return (
    <section class="aging" aria-labelledby={`aging-${aging.currency}`}>
      <h2 id={`aging-${aging.currency}`}>
        {aging.currency}: {formatMoney(aging.total, aging.currency)} due
      </h2>
      <div class="table-wrap">
        <table class="stack-narrow">
          <caption class="visually-hidden">Receivables aging in {aging.currency}</caption>
          <thead>
            <tr>
              <th scope="col">Contact</th>
              {COLUMNS.map(([key, label]) => (
                <th scope="col" class="number" key={key}>
                  {label}
                </th>
              ))}
              <th scope="col" class="number">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {aging.contacts.map((contact) => (
              <tr key={contact.contactId}>
                <th scope="row" data-label="Contact">
                  {linkContacts ? (
                    <Link href={`/crm/contacts/${contact.contactId}`}>{contact.contactName}</Link>
                  ) : (
                    contact.contactName
                  )}
                </th>
                {COLUMNS.map(([key, label]) => (
                  <td class="number" data-label={label} key={key}>
                    {money(contact.buckets[key])}
                  </td>
                ))}
                <td class="number" data-label="Total">
                  {money(contact.total)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr class="total">
              <th scope="row" data-label="Contact">
                Total {aging.currency}
              </th>
              {COLUMNS.map(([key, label]) => (
                <td class="number" data-label={label} key={key}>
                  {money(aging.buckets[key])}
                </td>
              ))}
              <td class="number" data-label="Total">
                {money(aging.total)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
