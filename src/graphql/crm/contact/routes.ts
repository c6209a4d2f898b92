import { resourceRoutes } from '../../kit/routes.js';
import { contactInput, contactList } from './input.js';
import { Contact } from './type.js';

export const contactRoutes = resourceRoutes({
  path: '/crm/contacts',
  tag: 'CRM',
  type: Contact,
  noun: ['contact', 'contacts'],
  list: contactList,
  input: contactInput,
  conflicts: {
    create: 'A contact with this email already exists',
    update: 'A contact with this email already exists',
  },
});
