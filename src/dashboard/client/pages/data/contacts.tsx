// Contacts: the list (search, sort, paging) and one contact's page with its deals.
import { navigate } from '../../route.js';
import { can, type PageProps } from '../../section.js';
import { formatDateTime, formatMoney, Link, Loaded, PageHeader, useQuery } from '../../ui.js';
import { ListPage, type ListSpec } from './list.js';

export interface Contact {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  company: string | null;
  phone: string | null;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

export const CONTACT_FIELDS = 'id firstName lastName email company phone tags createdAt updatedAt';

export const contactName = (contact: Pick<Contact, 'firstName' | 'lastName' | 'email'>) =>
  [contact.firstName, contact.lastName].filter(Boolean).join(' ') || contact.email;

const contactList: ListSpec<Contact> = {
  title: 'Contacts',
  field: 'contacts',
  sortType: 'ContactSort',
  selection: CONTACT_FIELDS,
  search: true,
  href: (contact) => `/contacts/${contact.id}`,
  columns: [
    { label: 'Name', sort: 'lastName', render: (c) => contactName(c) },
    { label: 'Email', sort: 'email', render: (c) => c.email },
    { label: 'Company', sort: 'company', render: (c) => c.company ?? '—' },
    { label: 'Created', sort: 'createdAt', render: (c) => formatDateTime(c.createdAt) },
  ],
};

export function ContactsPage({ viewer }: PageProps) {
  return (
    <ListPage
      spec={contactList}
      actions={
        can(viewer, 'crm:write') && (
          <Link class="button" href="/contacts/new">
            New contact
          </Link>
        )
      }
    />
  );
}

const CONTACT = `query Contact($id: ID!) {
  contact(id: $id) { ${CONTACT_FIELDS} deals(limit: 100) { data { id title stage amount currency } } }
}`;

interface ContactWithDeals extends Contact {
  deals: { data: { id: string; title: string; stage: string; amount: number; currency: string }[] };
}

export function ContactPage({ viewer, params }: PageProps) {
  const result = useQuery<{ contact: ContactWithDeals }>(CONTACT, { id: params.id });
  return (
    <Loaded query={result}>
      {({ contact }) => (
        <>
          <PageHeader title={contactName(contact)}>
            {can(viewer, 'crm:write') && (
              <>
                <Link class="button" href={`/contacts/${contact.id}/edit`}>
                  Edit
                </Link>
                <button type="button" class="secondary" onClick={() => navigate(`/deals/new?contactId=${contact.id}`)}>
                  New deal
                </button>
              </>
            )}
          </PageHeader>
          <dl class="facts panel">
            <dt>Email</dt>
            <dd>{contact.email}</dd>
            <dt>Name</dt>
            <dd>{[contact.firstName, contact.lastName].filter(Boolean).join(' ') || '—'}</dd>
            <dt>Company</dt>
            <dd>{contact.company ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{contact.phone ?? '—'}</dd>
            <dt>Tags</dt>
            <dd>
              {contact.tags.length
                ? contact.tags.map((tag) => (
                    <span class="tag" key={tag}>
                      {tag}
                    </span>
                  ))
                : '—'}
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(contact.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateTime(contact.updatedAt)}</dd>
          </dl>
          <h2>Deals</h2>
          {contact.deals.data.length ? (
            <ul class="plain-list">
              {contact.deals.data.map((deal) => (
                <li key={deal.id}>
                  <Link href={`/deals/${deal.id}`}>{deal.title}</Link> · {deal.stage} ·{' '}
                  {formatMoney(deal.amount, deal.currency)}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No deals with this contact.</p>
          )}
          <p>
            <Link href="/contacts">Back to contacts</Link>
          </p>
        </>
      )}
    </Loaded>
  );
}
