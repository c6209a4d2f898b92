// Contacts, declared once (see kit/resource.ts); the public shape is type.ts,
// the input and list input.ts. Nothing else is particular to a contact.
import { event } from '../../../events/event.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { contactInput, contactList } from './input.js';
import { Contact } from './type.js';

export const contacts = defineResource({
  type: Contact,
  idPrefix: 'con',
  area: AREAS.crm,
  path: 'contacts',
  names: { one: 'contact', many: 'contacts' },
  input: contactInput,
  list: contactList,
  operations: { delete: true },
  unique: { email: 'A contact with this email already exists in the organization' },
  // First and last name, as the dashboard shows a contact; the email when it has neither.
  label: {
    word: 'name',
    sql: (t) => `coalesce(nullif(trim(concat_ws(' ', "${t}"."firstName", "${t}"."lastName")), ''), "${t}".email)`,
  },
  events: {
    created: event('contact.created', 'A contact was created (POST /crm/contacts).'),
    updated: event('contact.updated', 'A contact was changed (PUT /crm/contacts/:id).'),
    deleted: event(
      'contact.deleted',
      'A contact was deleted (DELETE /crm/contacts/:id); data.object is the contact as it was.',
    ),
  },
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
