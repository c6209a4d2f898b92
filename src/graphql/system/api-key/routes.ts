import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { actionRoute, resourceRoutes, route } from '../../kit/routes.js';
import { apiKeyInput, apiKeyList, rotateApiKeySchema } from './input.js';
import { ApiKey, NewApiKey } from './type.js';

const tag = 'API keys';

export const apiKeyRoutes = [
  ...resourceRoutes({
    path: '/api-keys',
    tag,
    type: ApiKey,
    noun: ['API key', 'API keys'],
    list: apiKeyList,
    only: ['list', 'get'],
  }),
  route({
    method: 'post',
    path: '/api-keys',
    tag,
    summary: 'Create an API key',
    description: 'The answer holds `key` and `secret`: they are not shown again. Emits `api_key.created`.',
    operation: `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { ${selectionOf(NewApiKey)} } }`,
    body: apiKeyInput.create,
    variables: ({ body }) => ({ input: body }),
    status: 201,
    response: responseSchemaOf(NewApiKey),
  }),
  route({
    method: 'post',
    path: '/api-keys/:id/rotate',
    tag,
    summary: 'Rotate an API key',
    description: 'A new key and secret with the same name and scopes; the old key is revoked at once.',
    operation: `mutation ($id: ID!, $expiresAt: DateTime) { rotateApiKey(id: $id, expiresAt: $expiresAt) { ${selectionOf(NewApiKey)} } }`,
    body: rotateApiKeySchema,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    status: 201,
    response: responseSchemaOf(NewApiKey),
    conflict: 'The key is revoked',
  }),
  actionRoute({
    path: '/api-keys/:id/revoke',
    tag,
    summary: 'Revoke an API key',
    description: 'The key stops working at once, everywhere; it stays listed with `revokedAt`. Idempotent.',
    mutation: 'revokeApiKey',
    type: ApiKey,
  }),
];
