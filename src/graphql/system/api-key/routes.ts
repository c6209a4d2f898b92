// Beside the kit's rows (index.ts): the rotation, whose answer is the new key.
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { route } from '../../kit/routes.js';
import { rotateApiKeySchema } from './input.js';
import { NewApiKey } from './type.js';

export const rotateRoute = route({
  method: 'post',
  path: '/api-keys/:id/rotate',
  tag: 'API keys',
  summary: 'Rotate an API key',
  description: 'A new key and secret with the same name and scopes; the old key is revoked at once.',
  operation: `mutation ($id: ID!, $expiresAt: DateTime) { rotateApiKey(id: $id, expiresAt: $expiresAt) { ${selectionOf(NewApiKey)} } }`,
  body: rotateApiKeySchema,
  variables: ({ params, body }) => ({ id: params.id, ...body }),
  status: 201,
  response: responseSchemaOf(NewApiKey),
  conflict: 'The key is revoked',
});
