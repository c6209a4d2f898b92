// The Data section of the navigation and its pages: contacts and deals (read
// and, with crm:write, create and edit) and read-only HR and
// finance lists, each shown only to a viewer holding the scope it needs.
import type { Route, Section } from '../../section.js';
import { EditContactPage, NewContactPage } from './contact-form.js';
import { ContactPage, ContactsPage } from './contacts.js';
import { EditDealPage, NewDealPage } from './deal-form.js';
import { DealPage, DealsPage } from './deals.js';
import { RECORD_LISTS } from './records.js';

// `/contacts/new` before `/contacts/:id`: the first route that matches wins.
const routes: Route[] = [
  { path: '/contacts', page: ContactsPage, needs: 'crm:read' },
  { path: '/contacts/new', page: NewContactPage, needs: 'crm:write' },
  { path: '/contacts/:id', page: ContactPage, needs: 'crm:read' },
  { path: '/contacts/:id/edit', page: EditContactPage, needs: 'crm:write' },
  { path: '/deals', page: DealsPage, needs: 'crm:read' },
  { path: '/deals/new', page: NewDealPage, needs: 'crm:write' },
  { path: '/deals/:id', page: DealPage, needs: 'crm:read' },
  { path: '/deals/:id/edit', page: EditDealPage, needs: 'crm:write' },
  ...RECORD_LISTS.map(({ path, needs, page }) => ({ path, needs, page })),
];

export const dataSection: Section = {
  title: 'Data',
  links: [
    { href: '/contacts', label: 'Contacts', needs: 'crm:read' },
    { href: '/deals', label: 'Deals', needs: 'crm:read' },
    ...RECORD_LISTS.map(({ path, label, needs }) => ({ href: path, label, needs })),
  ],
  routes,
};
