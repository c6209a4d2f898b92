// OAuth apps (clients) on the kit: created with a client secret shown once,
// listed, changed, deleted with every code and token issued to them, their
// secret rotated; `admin` only. The OAuth endpoints find and authenticate
// clients through the same service (service.ts).
import { OAUTH_APP_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { defineModule } from '../../kit/module.js';
import { systemArea } from '../../kit/resource.js';
import { oauthAppInput, oauthAppList } from './input.js';
import { clientSecret, oauthAppRules, refusePublic } from './rules.js';
import { OauthAppService } from './service.js';
import { OauthApp } from './type.js';

const { created, updated, deleted, secretRotated } = OAUTH_APP_EVENTS;

export const oauthApps = defineResource({
  type: OauthApp,
  idPrefix: ID_PREFIX.oauthApp,
  table: 'OAuthApp',
  system: true,
  area: systemArea('OAuth apps'),
  path: 'oauth-apps',
  names: { one: 'oauthApp', many: 'oauthApps' },
  noun: ['OAuth app', 'OAuth apps'],
  input: oauthAppInput,
  list: oauthAppList,
  operations: { delete: true },
  events: { created, updated, deleted },
  secret: clientSecret,
  actions: {
    rotateSecret: {
      mutation: 'rotateOauthAppSecret',
      summary: "Rotate an OAuth app's client secret",
      description:
        'A new client secret, shown in this answer only; the old one stops at once. Tokens already issued stay valid. 409 for a public app.',
      issuesSecret: true,
      sets: refusePublic,
      event: secretRotated,
      conflict: 'A public app has no secret',
    },
  },
  rules: oauthAppRules,
  descriptions: {
    create:
      'The answer holds `clientSecret` (confidential apps): it is not shown again. A `public` app has none and must use PKCE.',
    update: 'Partial: fields sent are changed, omitted are kept, null clears the description.',
    delete: 'Deletes the app and every code and token issued to it; they stop working at once.',
  },
});

export const oauthAppModule = defineModule({
  ...oauthApps.module,
  services: { oauthApps: (deps) => new OauthAppService(oauthApps.resource, deps) },
});
