// Contact input and list arguments, each written once (see kit/inputs.ts, kit/list.ts).
import { z } from 'zod';
import { paymentTermsDays } from '../../finance/terms/days.js';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { email, phone, text } from '../../kit/values.js';

const tags = z
  .array(text(64), 'must be an array of strings')
  .max(50, 'must have at most 50 tags')
  .transform((values) => [...new Set(values)]);

export const contactInput = defineInput('Contact', {
  firstName: optional(text(100)),
  lastName: optional(text(100)),
  email: required(email, { description: 'Unique within the organization; cannot be cleared.' }),
  company: optional(text(200)),
  phone: optional(phone),
  tags: optional(tags, { default: [], clearable: true, description: 'null clears the tags.' }),
  paymentTermsDays: optional(paymentTermsDays, {
    description: "Days from an invoice's issue date to its due date, 0 to 3650; null: the organization's default.",
  }),
});

export const contactList = defineList('Contact', {
  sort: ['createdAt', 'updatedAt', 'firstName', 'lastName', 'email', 'company'],
  filters: {
    email: filter(text(254), {
      description: 'Exact email (case-insensitive).',
      where: (p) => `"Contact".email = lower(${p})`,
    }),
    company: filter(text(200), {
      description: 'Exact company name (case-insensitive).',
      where: (p) => `lower("Contact".company) = lower(${p})`,
    }),
    tag: filter(text(64), { description: 'Contacts carrying this tag.', where: (p) => `${p} = any("Contact".tags)` }),
    q: searchFilter(
      'Contact',
      [
        { name: 'firstName', nullable: true },
        { name: 'lastName', nullable: true },
        { name: 'email', nullable: false },
        { name: 'company', nullable: true },
      ],
      { schema: text(200), description: 'Text search over names, email and company (e.g. "ada lovelace").' },
    ),
  },
});
