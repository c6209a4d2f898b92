// Contacts, declared once (see kit/resource.ts); the public shape is type.ts,
// the input and list input.ts. Nothing else is particular to a contact.
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { contactInput, contactList } from './input.js';
import { Contact } from './type.js';

export const contacts = defineResource({
  type: Contact,
  idKind: 'contact',
  area: AREAS.crm,
  path: 'contacts',
  names: { one: 'contact', many: 'contacts' },
  input: contactInput,
  list: contactList,
  operations: { delete: true },
  unique: { email: 'A contact with this email already exists in the organization' },
  events: { created: 'contact.created', updated: 'contact.updated', deleted: 'contact.deleted' },
  conflicts: { delete: 'Invoices still refer to the contact' },
  examples: {
    create: (n) => ({
      email: `contact-${n}@example.test`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Analytical Engines',
      phone: '+44 20 7946 0000',
      tags: ['vip'],
    }),
    update: { company: 'Changed Co' },
  },
});
