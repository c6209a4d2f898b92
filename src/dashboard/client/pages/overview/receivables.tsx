// Finance (finance:read): what open invoices still owe and how much of it is
// overdue, per currency (never added across currencies), from the receivables
// aging; and how many invoices are overdue.
import { formatMoney, Link, useQuery } from '../../ui.js';
import { countOf, Figure, OverviewCard, type Counted } from './card.js';

interface Buckets {
  current: number;
  days1to30: number;
  days31to60: number;
  days61to90: number;
  over90: number;
}

interface Receivables {
  receivablesAging: { currencies: { currency: string; total: number; buckets: Buckets }[] };
  overdueInvoices: Counted;
}

const RECEIVABLES = `query OverviewReceivables {
  receivablesAging { currencies { currency total buckets { current days1to30 days31to60 days61to90 over90 } } }
  overdueInvoices: invoices(overdue: true, limit: 1) { pagination { total totalExact } }
}`;

/** Past due: every bucket but "current". */
export const overdueOf = (total: number, buckets: Buckets) => total - buckets.current;

export function ReceivablesCard() {
  const query = useQuery<Receivables>(RECEIVABLES);
  return (
    <OverviewCard id="receivables" title="Receivables" query={query}>
      {({ receivablesAging, overdueInvoices }) => {
        const overdueCount = overdueInvoices.pagination.total;
        return (
          <>
            {receivablesAging.currencies.length ? (
              <table class="overview-table">
                <thead>
                  <tr>
                    <th scope="col">Currency</th>
                    <th scope="col" class="number">
                      Open
                    </th>
                    <th scope="col" class="number">
                      Overdue
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {receivablesAging.currencies.map(({ currency, total, buckets }) => (
                    <tr key={currency}>
                      <th scope="row">{currency}</th>
                      <td class="number">{formatMoney(total, currency)}</td>
                      <td class="number">{formatMoney(overdueOf(total, buckets), currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p class="muted">Nothing is owed: no open invoice has an amount due.</p>
            )}
            <dl class="figures">
              <Figure
                id="overdue-invoices"
                label={overdueCount === 1 ? 'Overdue invoice' : 'Overdue invoices'}
                value={countOf(overdueInvoices)}
                href="/finance/invoices?overdue=true"
              />
            </dl>
            <p class="card-links">
              <Link href="/finance/aging">Receivables aging</Link>
            </p>
          </>
        );
      }}
    </OverviewCard>
  );
}
