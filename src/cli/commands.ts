// The operator commands. Each checks its options before any database is opened
// (so a wrong command line fails fast; the checks are the services' own
// schemas) and returns a runner that calls the same services as the API, as
// the operator: `admin` in the organization the command names.
import { operatorPrincipal } from '../auth/principal.js';
import { SCOPES, parseScopes } from '../auth/scopes.js';
import { Prisma } from '../db/prisma.js';
import type { Services } from '../graphql/modules.js';
import { apiKeyInput } from '../graphql/system/api-key/input.js';
import type { ApiKey, NewApiKey } from '../graphql/system/api-key/type.js';
import { oauthAppInput } from '../graphql/system/oauth-app/input.js';
import { createOrganizationSchema } from '../graphql/system/organization/service.js';
import { DomainError } from '../errors.js';
import { parseInput } from '../validation.js';
import { CliError, invalidOption, notFoundError } from './errors.js';
import { exportCreate } from './export-command.js';
import { importCreate } from './import-command.js';

export interface CommandOutput {
  json: unknown;
  text: string;
}

/** What a long command may show while it runs (progress on stderr). */
export interface CommandIo {
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** --json: stderr is kept for the error document (a terminal still gets a progress bar). */
  json: boolean;
}

export type Runner = (services: Services, io: CommandIo) => Promise<CommandOutput>;

export type Flags = Readonly<Record<string, string | undefined>>;
/** The values of repeatable options, in the order given. */
export type Lists = Readonly<Record<string, readonly string[]>>;

export interface Command {
  /** Two words: `org create`. */
  name: string;
  /** The value options it accepts (besides --json and --help), switches and repeatable ones included. */
  options: readonly string[];
  /** Of options, those given once per value. */
  repeatable?: readonly string[];
  /** Of options, those without a value. */
  switches?: readonly string[];
  prepare(flags: Flags, lists: Lists): Runner;
}

/** At most 100 years, so the date stays representable and sane. */
export const MAX_EXPIRES_IN_DAYS = 36_500;
const DAY_MS = 86_400_000;

function required(flags: Flags, option: string, { trim = true } = {}): string {
  const raw = flags[option];
  const value = trim ? raw?.trim() : raw;
  if (value === undefined || value === '') throw invalidOption(`--${option}`, 'is required');
  return value;
}

/** --scopes as scope names; a CliError naming the option when one is unknown. */
function scopesOption(flags: Flags) {
  try {
    return parseScopes(required(flags, 'scopes'));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('VALIDATION_ERROR', `--scopes: ${(error as Error).message}`, 2, '--scopes');
  }
}

async function requireOrganization(services: Services, id: string): Promise<void> {
  if (!(await services.organizations.exists(id))) throw notFoundError(`organization ${id} not found`, '--org');
}

/** The organization of a key named by id alone (the operator may act in any organization). */
async function organizationOfKey(services: Services, id: string): Promise<string> {
  const organizationId = await services.apiKeys.organizationOf(id);
  if (!organizationId) throw notFoundError(`API key ${id} not found`, '--id');
  return organizationId;
}

/** A new key as the CLI has always printed it (scripts depend on the fields and their order). */
function createdKeyJson(created: NewApiKey) {
  const { id, name, prefix, scopes, expiresAt, createdAt, key, secret } = created;
  return { id, name, prefix, scopes, expiresAt, createdAt, key, secret };
}

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

const apiKeyCreate: Command = {
  name: 'api-key create',
  options: ['org', 'name', 'scopes', 'expires-in-days'],
  prepare(flags) {
    const organizationId = required(flags, 'org');
    const name = required(flags, 'name');
    const scopes = scopesOption(flags);
    if (scopes.length === 0) throw invalidOption('--scopes', `needs at least one scope (known: ${SCOPES.join(' ')})`);
    const days = parseDays(flags['expires-in-days']);
    const input = { name, scopes, ...(days !== undefined && { expiresAt: daysFromNow(days) }) };
    parseInput(apiKeyInput.create, input);
    return async (services) => {
      await requireOrganization(services, organizationId);
      let created;
      try {
        created = createdKeyJson(await services.apiKeys.create(operatorPrincipal(organizationId), input));
      } catch (error) {
        // The organization was deleted between the check and the insert.
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') {
          throw notFoundError(`organization ${organizationId} not found`, '--org');
        }
        throw error;
      }
      return {
        json: created,
        text: [
          `Created API key ${created.id} (${created.name}) for ${organizationId}`,
          `  key:     ${created.key}`,
          `  secret:  ${created.secret}`,
          `  scopes:  ${created.scopes.join(' ')}`,
          `  expires: ${created.expiresAt ?? 'never'}`,
          'Store the key and the secret now: they are not shown again.',
        ].join('\n'),
      };
    };
  },
};

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString();
}

function parseDays(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const days = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS) {
    throw invalidOption('--expires-in-days', `must be a positive whole number of days (1 to ${MAX_EXPIRES_IN_DAYS})`);
  }
  return days;
}

const apiKeyList: Command = {
  name: 'api-key list',
  options: ['org'],
  prepare(flags) {
    const organizationId = required(flags, 'org');
    return async (services) => {
      await requireOrganization(services, organizationId);
      const keys: ApiKey[] = [];
      const principal = operatorPrincipal(organizationId);
      for (let page = 1; ; page++) {
        const { data, pagination } = await services.apiKeys.list(principal, { page, limit: 100 });
        keys.push(...data);
        if (page >= pagination.pages) break;
      }
      return { json: { data: keys }, text: keysTable(organizationId, keys) };
    };
  },
};

function keysTable(organizationId: string, keys: ApiKey[]): string {
  if (keys.length === 0) return `No API keys for ${organizationId}.`;
  // CREATOR: the user a key acts for, or "operator" (no creator: not bounded by anyone's rights).
  const header = ['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATOR', 'STATUS', 'EXPIRES', 'LAST USED', 'CREATED'];
  const now = Date.now();
  const rows = keys.map((key) => [
    key.id,
    key.name,
    `${key.prefix}…`,
    key.scopes.join(' '),
    key.createdByUserId ?? (key.revokedAt ? '-' : 'operator'),
    key.revokedAt ? 'revoked' : key.expiresAt && Date.parse(key.expiresAt) <= now ? 'expired' : 'active',
    key.expiresAt ?? 'never',
    key.lastUsedAt ?? '-',
    key.createdAt,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const apiKeyRevoke: Command = {
  name: 'api-key revoke',
  options: ['id'],
  prepare(flags) {
    const id = required(flags, 'id');
    return async (services) => {
      const organizationId = await organizationOfKey(services, id);
      const revoked = await services.apiKeys.revoke(operatorPrincipal(organizationId), id);
      return {
        json: revoked,
        text: `Revoked API key ${revoked.id} (${revoked.name}, ${revoked.prefix}…) at ${revoked.revokedAt}`,
      };
    };
  },
};

const apiKeyRotate: Command = {
  name: 'api-key rotate',
  options: ['id', 'expires-in-days'],
  prepare(flags) {
    const id = required(flags, 'id');
    const days = parseDays(flags['expires-in-days']);
    return async (services) => {
      const organizationId = await organizationOfKey(services, id);
      const input = days === undefined ? {} : { expiresAt: daysFromNow(days) };
      const rotated = await services.apiKeys.rotate(operatorPrincipal(organizationId), id, input);
      return {
        json: rotated,
        text: [
          `Rotated API key ${id}: it is revoked; its replacement is ${rotated.id} (${rotated.name})`,
          `  key:     ${rotated.key}`,
          `  secret:  ${rotated.secret}`,
          `  scopes:  ${rotated.scopes.join(' ')}`,
          `  expires: ${rotated.expiresAt ?? 'never'}`,
          'Store the key and the secret now: they are not shown again.',
        ].join('\n'),
      };
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
