// The operator commands. Each checks its options before any database is opened
// (so a wrong command line fails fast; the checks are the services' own
// schemas) and returns a runner that calls the same services as the API, as
// the operator: `admin` in the organization the command names. The types and
// shared option checks are in command.ts, the API key commands in
// api-key-commands.ts.
import { operatorPrincipal } from '../auth/principal.js';
import { oauthAppInput } from '../graphql/system/oauth-app/input.js';
import { createOrganizationSchema } from '../graphql/system/organization/service.js';
import { DomainError } from '../errors.js';
import { parseInput } from '../validation.js';
import { apiKeyCreate, apiKeyList, apiKeyRevoke, apiKeyRotate, createdKeyJson } from './api-key-commands.js';
import { required, requireOrganization, scopesOption, type Command } from './command.js';
import { invalidOption } from './errors.js';
import { exportCreate } from './export-command.js';
import { importCreate } from './import-command.js';

const orgCreate: Command = {
  name: 'org create',
  options: ['name', 'admin-email', 'admin-password', 'with-key'],
  switches: ['with-key'],
  prepare(flags) {
    const input = {
      name: required(flags, 'name'),
      adminEmail: required(flags, 'admin-email'),
      adminPassword: required(flags, 'admin-password', { trim: false }),
    };
    const withKey = flags['with-key'] === 'true';
    // The same checks createOrganization makes, before a database is opened.
    parseInput(createOrganizationSchema, input);
    return async (services) => {
      const created = await services.organizations.create(input);
      const text = [
        `Created organization ${created.organization.id} (${created.organization.name})`,
        `  admin user: ${created.user.id} ${created.user.email}`,
      ];
      if (!withKey) return { json: created, text: text.join('\n') };
      // The first admin key, made by the admin (so it holds no more than the admin does), as the demo's is.
      const principal = operatorPrincipal(created.organization.id, created.user.id);
      const key = createdKeyJson(
        await services.apiKeys.create(principal, { name: 'first admin key', scopes: ['admin'] }),
      );
      text.push(
        `  API key:    ${key.id} ${key.key}`,
        `  key secret: ${key.secret}`,
        'Store the key and the secret now: they are not shown again.',
      );
      return { json: { ...created, apiKey: key }, text: text.join('\n') };
    };
  },
};

const oauthClientCreate: Command = {
  name: 'oauth-client create',
  options: ['org', 'name', 'description', 'redirect-uri', 'scopes', 'public'],
  repeatable: ['redirect-uri'],
  switches: ['public'],
  prepare(flags, lists) {
    const organizationId = required(flags, 'org');
    const scopes = scopesOption(flags);
    const redirectUris = lists['redirect-uri'] ?? [];
    if (redirectUris.length === 0) throw invalidOption('--redirect-uri', 'is required (repeat it for several URIs)');
    const input = {
      name: required(flags, 'name'),
      ...(flags.description !== undefined && { description: flags.description }),
      redirectUris,
      scopes,
      clientType: flags.public === 'true' ? 'public' : 'confidential',
    };
    try {
      parseInput(oauthAppInput.create, input);
    } catch (error) {
      // The service names its fields (redirectUris.0); the operator typed an option (--redirect-uri).
      if (error instanceof DomainError && error.field?.startsWith('redirectUris')) {
        throw invalidOption('--redirect-uri', error.message.replace(/^'[^']*':? ?/, ''));
      }
      throw error;
    }
    return async (services) => {
      await requireOrganization(services, organizationId);
      const app = await services.oauthApps.create(operatorPrincipal(organizationId), input);
      return {
        json: { id: app.id, clientId: app.clientId, clientSecret: app.clientSecret },
        text: [
          `Created OAuth app ${app.id} (${app.name}) for ${organizationId}`,
          `  client_id:     ${app.clientId}`,
          `  client_secret: ${app.clientSecret ?? '(none: a public client, PKCE required)'}`,
          `  redirect URIs: ${app.redirectUris.join(' ')}`,
          `  scopes:        ${app.scopes.join(' ')}`,
          ...(app.clientSecret ? ['Store the client secret now: it is not shown again.'] : []),
        ].join('\n'),
      };
    };
  },
};

export const COMMANDS: readonly Command[] = [
  orgCreate,
  apiKeyCreate,
  apiKeyList,
  apiKeyRevoke,
  apiKeyRotate,
  oauthClientCreate,
  exportCreate,
  importCreate,
];
