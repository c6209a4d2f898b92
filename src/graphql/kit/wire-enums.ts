// The enums of values REST and events write in forms GraphQL names cannot
// take: scopes (`crm:read`) and event types (`deal.closed`), and the credential
// types beside them. One GraphQL type each, wherever the value appears.
import { CREDENTIAL_TYPES } from '../../auth/principal.js';
import { SCOPES } from '../../auth/scopes.js';
import { EVENT_TYPES } from '../../jobs/event-types.js';
import { graphqlEnum, wireEnum } from './enums.js';

export const ScopeEnum = wireEnum('Scope', SCOPES, 'A scope: what a credential may do.');

/** A test delivery's event type (src/graphql/system/webhook/service.ts): stored and shown, never subscribed to. */
const TEST_EVENT = 'webhook.test';

export const EventTypeEnum = wireEnum(
  'EventType',
  [...Object.keys(EVENT_TYPES), TEST_EVENT],
  'The type of an event (webhook.test only for test deliveries).',
);

export const CredentialTypeEnum = graphqlEnum('CredentialType', CREDENTIAL_TYPES, {
  description: 'What a caller authenticated with.',
});
