import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { route } from '../../kit/routes.js';
import { updateOrganizationSchema } from './input.js';
import { Organization } from './type.js';

const tag = 'Organization';
const fields = selectionOf(Organization);

export const organizationRoutes = [
  route({
    method: 'get',
    path: '/organization',
    tag,
    summary: 'Get the organization',
    operationId: 'getOrganization',
    description:
      "The caller's organization: its name, time zone (IANA), working week (ISO weekdays), the legal name, " +
      'address and tax id its documents print, and its default payment terms (days). Any credential.',
    operation: `query { organization { ${fields} } }`,
    variables: () => ({}),
    status: 200,
    response: responseSchemaOf(Organization),
  }),
  route({
    method: 'put',
    path: '/organization',
    tag,
    summary: 'Update the organization',
    description:
      'Partial: `name`, `timeZone` (an IANA name such as Europe/Paris; where its days begin and end: attendance days, ' +
      'notice periods, "today") and `workingDays` (distinct ISO weekdays, 1 Monday .. 7 Sunday: what a leave ' +
      "request's `days` count), what its invoices print: `legalName` (instead of `name`), `address` (lines " +
      'separated by newlines) and `taxId` (null clears them), and `paymentTermsDays` (0 to 3650, default 30: an ' +
      'invoice is due that many days after its issue date unless it or its contact says otherwise). Admin only. ' +
      'Emits `organization.updated` with previousAttributes.',
    operation: `mutation ($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { ${fields} } }`,
    body: updateOrganizationSchema,
    variables: ({ body }) => ({ input: body }),
    status: 200,
    response: responseSchemaOf(Organization),
  }),
];
