import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { booleanFlag, scopeList, text } from '../../kit/values.js';
import { ScopeEnum } from '../../kit/wire-enums.js';

/** An ISO 8601 time in the future. */
export const futureTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
  .refine((value) => Date.parse(value) > Date.now(), 'must be in the future');

export const apiKeyInput = defineInput('ApiKey', {
  name: required(text(200)),
  scopes: required(scopeList({ min: 1 }), {
    graphql: () => [ScopeEnum],
    createOnly: true,
    description: 'At most the scopes of the caller.',
  }),
  expiresAt: optional(futureTime, { createOnly: true, description: 'ISO 8601; omitted: never expires.' }),
});

export const rotateApiKeySchema = z.strictObject({ expiresAt: futureTime.nullish() });

export const apiKeyList = defineList('ApiKey', {
  sort: ['createdAt', 'name'],
  filters: {
    revoked: filter(booleanFlag, {
      description: 'Revoked keys (true) or those not revoked (false: active and expired ones).',
      where: (p) => `("ApiKey"."revokedAt" is not null) = ${p}`,
    }),
  },
});
