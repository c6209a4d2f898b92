// The enums of values REST and events write in forms GraphQL names cannot
// take: scopes (`crm:read`), and the credential types beside them. One GraphQL
// type each, wherever the value appears. Event types (`deal.closed`) are one too,
// made from the event catalogue by the event folder (system/event/event-type-enum.ts):
// the catalogue reads the declarations, which the kit must not wait on.
import { CREDENTIAL_TYPES } from '../../auth/principal.js';
import { SCOPES } from '../../auth/scopes.js';
import { graphqlEnum, wireEnum } from './enums.js';

export const ScopeEnum = wireEnum('Scope', SCOPES, 'A scope: what a credential may do.');

export const CredentialTypeEnum = graphqlEnum('CredentialType', CREDENTIAL_TYPES, {
  description: 'What a caller authenticated with.',
});
