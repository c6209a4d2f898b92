// The API key commands: create, list, revoke and rotate a key, as the operator.
import { operatorPrincipal } from '../auth/principal.js';
import { SCOPES } from '../auth/scopes.js';
import { Prisma } from '../db/prisma.js';
import type { Services } from '../graphql/modules.js';
import { apiKeyInput } from '../graphql/system/api-key/input.js';
import type { ApiKey, NewApiKey } from '../graphql/system/api-key/type.js';
import { parseInput } from '../validation.js';
import { required, requireOrganization, scopesOption, type Command } from './command.js';
import { invalidOption, notFoundError } from './errors.js';

/** At most 100 years, so the date stays representable and sane. */
export const MAX_EXPIRES_IN_DAYS = 36_500;
const DAY_MS = 86_400_000;

/** The organization of a key named by id alone (the operator may act in any organization). */
async function organizationOfKey(services: Services, id: string): Promise<string> {
  const organizationId = await services.apiKeys.organizationOf(id);
  if (!organizationId) throw notFoundError(`API key ${id} not found`, '--id');
  return organizationId;
}

/** A new key as the CLI has always printed it (scripts depend on the fields and their order). */
export function createdKeyJson(created: NewApiKey) {
  const { id, name, prefix, scopes, expiresAt, createdAt, key, secret } = created;
  return { id, name, prefix, scopes, expiresAt, createdAt, key, secret };
}

export const apiKeyCreate: Command = {
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

export const apiKeyList: Command = {
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

export const apiKeyRevoke: Command = {
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

export const apiKeyRotate: Command = {
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
