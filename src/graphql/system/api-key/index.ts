// API keys on the kit: issued with a key and a secret shown once (stored as
// hashes), listed, revoked (an action: the key stays listed) and rotated (a new
// key and the old one revoked in one transaction: service.ts); `admin` only. A key
// is used within its creator's current rights (auth/credentials.ts).
import { API_KEY_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { defineModule } from '../../kit/module.js';
import { systemArea } from '../../kit/resource.js';
import { apiKeyInput, apiKeyList } from './input.js';
import { ApiKeyResolver } from './resolver.js';
import { rotateRoute } from './routes.js';
import { apiKeyRules, keyAndSecret, revoked } from './rules.js';
import { ApiKeyService } from './service.js';
import { ApiKey } from './type.js';

export const apiKeys = defineResource({
  type: ApiKey,
  idPrefix: ID_PREFIX.apiKey,
  updatedAt: false,
  system: true,
  area: systemArea('API keys'),
  path: 'api-keys',
  names: { one: 'apiKey', many: 'apiKeys' },
  noun: ['API key', 'API keys'],
  input: apiKeyInput,
  list: apiKeyList,
  operations: { update: false },
  // The kit's relation field `replacedBy`; no inverse (a key is replaced by one key).
  references: {
    replacedById: {
      target: 'self',
      inverse: false,
      description: 'The key a rotation replaced this one with (see replacedById).',
    },
  },
  events: { created: API_KEY_EVENTS.created },
  secret: keyAndSecret,
  actions: {
    revoke: {
      summary: 'Revoke an API key',
      description: 'The key stops working at once, everywhere; it stays listed with `revokedAt`. Idempotent.',
      leaves: (key) => key.revokedAt !== null,
      previous: false,
      sets: revoked,
      event: API_KEY_EVENTS.revoked,
    },
  },
  rules: apiKeyRules,
  descriptions: {
    create: 'The answer holds `key` and `secret`: they are not shown again. Emits `api_key.created`.',
  },
});

export const apiKeyModule = defineModule({
  resolvers: [...apiKeys.module.resolvers, ApiKeyResolver],
  routes: [...apiKeys.module.routes, rotateRoute],
  services: { apiKeys: (deps) => new ApiKeyService(apiKeys.resource, deps) },
});
