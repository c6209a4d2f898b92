// Deals: the list (stage filter, title search, sort, paging) and one deal's page.
import type { PageProps } from '../../section.js';
import { can } from '../../section.js';
import { formatDateTime, formatMoney, Link, Loaded, PageHeader, useQuery } from '../../ui.js';
import { contactName } from './contacts.js';
import { ListPage, type ListSpec } from './list.js';

export const STAGES = ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
/** A deal can be created at an open stage only; won and lost close it (the API's rule). */
export const OPEN_STAGES = STAGES.slice(0, 4);

export interface Deal {
  id: string;
  title: string;
  amount: number;
  currency: string;
  stage: string;
  contactId: string | null;
  expectedCloseDate: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  contact: { id: string; firstName: string | null; lastName: string | null; email: string } | null;
}

export const DEAL_FIELDS =
  'id title amount currency stage contactId expectedCloseDate closedAt createdAt updatedAt contact { id firstName lastName email }';

const dealList: ListSpec<Deal> = {
  title: 'Deals',
  field: 'deals',
  sortType: 'DealSort',
  selection: DEAL_FIELDS,
  search: true,
  filter: { name: 'stage', type: 'DealStage', label: 'Stage', options: STAGES },
  href: (deal) => `/deals/${deal.id}`,
  columns: [
    { label: 'Title', sort: 'title', render: (d) => d.title },
    { label: 'Stage', sort: 'stage', render: (d) => d.stage },
    { label: 'Amount', sort: 'amount', number: true, render: (d) => formatMoney(d.amount, d.currency) },
    { label: 'Contact', render: (d) => (d.contact ? contactName(d.contact) : '—') },
    { label: 'Expected close', sort: 'expectedCloseDate', render: (d) => d.expectedCloseDate ?? '—' },
    { label: 'Created', sort: 'createdAt', render: (d) => formatDateTime(d.createdAt) },
  ],
};

export function DealsPage({ viewer }: PageProps) {
  return (
    <ListPage
      spec={dealList}
      actions={
        can(viewer, 'crm:write') && (
          <Link class="button" href="/deals/new">
            New deal
          </Link>
        )
      }
    />
  );
}

export function DealPage({ viewer, params }: PageProps) {
  const result = useQuery<{ deal: Deal }>(`query Deal($id: ID!) { deal(id: $id) { ${DEAL_FIELDS} } }`, {
    id: params.id,
  });
  return (
    <Loaded query={result}>
      {({ deal }) => (
        <>
          <PageHeader title={deal.title}>
            {can(viewer, 'crm:write') && (
              <Link class="button" href={`/deals/${deal.id}/edit`}>
                Edit
              </Link>
            )}
          </PageHeader>
          <dl class="facts panel">
            <dt>Stage</dt>
            <dd>{deal.stage}</dd>
            <dt>Amount</dt>
            <dd>{formatMoney(deal.amount, deal.currency)}</dd>
            <dt>Contact</dt>
            <dd>
              {deal.contact ? <Link href={`/contacts/${deal.contact.id}`}>{contactName(deal.contact)}</Link> : '—'}
            </dd>
            <dt>Expected close</dt>
            <dd>{deal.expectedCloseDate ?? '—'}</dd>
            <dt>Closed</dt>
            <dd>{formatDateTime(deal.closedAt)}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(deal.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateTime(deal.updatedAt)}</dd>
          </dl>
          <p>
            <Link href="/deals">Back to deals</Link> · <Link href="/crm/pipeline">Pipeline</Link>
          </p>
        </>
      )}
    </Loaded>
  );
}
