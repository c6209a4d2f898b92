import { z } from 'zod';
import { CONTACT_FIELDS } from '../../graphql/crm/contact.type.js';
import { contactFilterSchema, createContactSchema, updateContactSchema } from '../../graphql/crm/contact.input.js';
import { contactSchema, pageOf } from '../response-schemas.js';
import { route } from '../route.js';

const contactPage = pageOf(contactSchema, 'ContactPage');

export const crmRoutes = [
  route({
    method: 'get',
    path: '/crm/contacts',
    scope: 'crm:read',
    tag: 'CRM',
    summary: 'List contacts',
    description: 'Oldest first (createdAt, then id) unless `sort` names a field.',
    operation: `query ($page: Int, $limit: Int, $sort: String, $email: String, $company: String, $tag: String, $q: String) {
      contacts(page: $page, limit: $limit, sort: $sort, email: $email, company: $company, tag: $tag, q: $q) {
        data { ${CONTACT_FIELDS} } pagination { page limit total pages } } }`,
    query: contactFilterSchema,
    variables: ({ query }) => query,
    status: 200,
    response: contactPage,
  }),
  route({
    method: 'post',
    path: '/crm/contacts',
    scope: 'crm:write',
    tag: 'CRM',
    summary: 'Create a contact',
    operation: `mutation ($input: CreateContactInput!) { createContact(input: $input) { ${CONTACT_FIELDS} } }`,
    body: createContactSchema,
    variables: ({ body }) => ({ input: body }),
    status: 201,
    response: contactSchema,
  }),
  route({
    method: 'get',
    path: '/crm/contacts/:id',
    scope: 'crm:read',
    tag: 'CRM',
    summary: 'Get a contact',
    operation: `query ($id: ID!) { contact(id: $id) { ${CONTACT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: contactSchema,
  }),
  route({
    method: 'put',
    path: '/crm/contacts/:id',
    scope: 'crm:write',
    tag: 'CRM',
    summary: 'Update a contact',
    description: 'Partial: fields sent are changed, omitted are kept, null clears an optional field.',
    operation: `mutation ($id: ID!, $input: UpdateContactInput!) { updateContact(id: $id, input: $input) { ${CONTACT_FIELDS} } }`,
    body: updateContactSchema,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    status: 200,
    response: contactSchema,
  }),
  route({
    method: 'delete',
    path: '/crm/contacts/:id',
    scope: 'crm:write',
    tag: 'CRM',
    summary: 'Delete a contact',
    operation: `mutation ($id: ID!) { deleteContact(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 204,
    response: z.undefined(),
  }),
];
