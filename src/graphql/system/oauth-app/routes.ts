import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { resourceRoutes, route } from '../../kit/routes.js';
import { oauthAppInput, oauthAppList } from './input.js';
import { NewOauthApp, OauthApp } from './type.js';

const tag = 'OAuth apps';

export const oauthAppRoutes = [
  ...resourceRoutes({
    path: '/oauth-apps',
    tag,
    type: OauthApp,
    noun: ['OAuth app', 'OAuth apps'],
    list: oauthAppList,
    input: oauthAppInput,
    only: ['list', 'get', 'update', 'delete'],
    descriptions: {
      update: 'Partial: fields sent are changed, omitted are kept, null clears the description.',
      delete: 'Deletes the app and every code and token issued to it; they stop working at once.',
    },
  }),
  route({
    method: 'post',
    path: '/oauth-apps',
    tag,
    summary: 'Create an OAuth app',
    description:
      'The answer holds `clientSecret` (confidential apps): it is not shown again. A `public` app has none and must use PKCE.',
    operation: `mutation ($input: CreateOauthAppInput!) { createOauthApp(input: $input) { ${selectionOf(NewOauthApp)} } }`,
    body: oauthAppInput.create,
    variables: ({ body }) => ({ input: body }),
    status: 201,
    response: responseSchemaOf(NewOauthApp),
  }),
  route({
    method: 'post',
    path: '/oauth-apps/:id/rotate-secret',
    tag,
    summary: "Rotate an OAuth app's client secret",
    description:
      'A new client secret, shown in this answer only; the old one stops at once. Tokens already issued stay valid. 409 for a public app.',
    operation: `mutation ($id: ID!) { rotateOauthAppSecret(id: $id) { ${selectionOf(NewOauthApp)} } }`,
    variables: ({ params }) => ({ id: params.id }),
    status: 200,
    response: responseSchemaOf(NewOauthApp),
    conflict: 'A public app has no secret',
  }),
];
