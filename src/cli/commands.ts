// The operator commands. Each checks its options before any database is opened
// (so a wrong command line fails fast) and returns a runner that does the work
// and answers with a JSON document and the same result as readable text.
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey, type ApiKeySummary } from '../auth/api-keys.js';
import { SCOPES, parseScopes } from '../auth/scopes.js';
import { Prisma, type PrismaClient } from '../db/prisma.js';
import { createOrganization, createOrganizationSchema } from '../graphql/system/organization.service.js';
import { parseInput } from '../validation.js';
import { CliError, invalidOption, notFoundError } from './errors.js';

export interface CommandOutput {
  json: unknown;
  text: string;
}

export type Runner = (prisma: PrismaClient) => Promise<CommandOutput>;

export type Flags = Readonly<Record<string, string | undefined>>;

export interface Command {
  /** Two words: `org create`. */
  name: string;
  /** The value options it accepts (besides --json and --help). */
  options: readonly string[];
  prepare(flags: Flags): Runner;
}

/** At most 100 years, so the date stays representable and sane. */
export const MAX_EXPIRES_IN_DAYS = 36_500;
const MAX_KEY_NAME_LENGTH = 200;
const DAY_MS = 86_400_000;

function required(flags: Flags, option: string, { trim = true } = {}): string {
  const raw = flags[option];
  const value = trim ? raw?.trim() : raw;
  if (value === undefined || value === '') throw invalidOption(`--${option}`, 'is required');
  return value;
}

async function requireOrganization(prisma: PrismaClient, id: string): Promise<void> {
  const found = await prisma.organization.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw notFoundError(`organization ${id} not found`, '--org');
}

const orgCreate: Command = {
  name: 'org create',
  options: ['name', 'admin-email', 'admin-password'],
  prepare(flags) {
    const input = {
      name: required(flags, 'name'),
      adminEmail: required(flags, 'admin-email'),
      adminPassword: required(flags, 'admin-password', { trim: false }),
    };
    // The same checks createOrganization makes, before a database is opened.
    parseInput(createOrganizationSchema, input);
    return async (prisma) => {
      const created = await createOrganization(prisma, input);
      return {
        json: created,
        text: [
          `Created organization ${created.organization.id} (${created.organization.name})`,
          `  admin user: ${created.user.id} ${created.user.email}`,
        ].join('\n'),
      };
    };
  },
};

const apiKeyCreate: Command = {
  name: 'api-key create',
  options: ['org', 'name', 'scopes', 'expires-in-days'],
  prepare(flags) {
    const organizationId = required(flags, 'org');
    const name = required(flags, 'name');
    if (name.length > MAX_KEY_NAME_LENGTH) {
      throw invalidOption('--name', `must be at most ${MAX_KEY_NAME_LENGTH} characters`);
    }
    let scopes;
    try {
      scopes = parseScopes(required(flags, 'scopes'));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError('VALIDATION_ERROR', `--scopes: ${(error as Error).message}`, 2, '--scopes');
    }
    if (scopes.length === 0) throw invalidOption('--scopes', `needs at least one scope (known: ${SCOPES.join(' ')})`);
    const days = parseDays(flags['expires-in-days']);
    return async (prisma) => {
      await requireOrganization(prisma, organizationId);
      const expiresAt = days === undefined ? null : new Date(Date.now() + days * DAY_MS);
      let created;
      try {
        created = await createApiKey(prisma, { organizationId, name, scopes, expiresAt });
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
    return async (prisma) => {
      await requireOrganization(prisma, organizationId);
      const keys = await listApiKeys(prisma, organizationId);
      return { json: { data: keys }, text: keysTable(organizationId, keys) };
    };
  },
};

function keysTable(organizationId: string, keys: ApiKeySummary[]): string {
  if (keys.length === 0) return `No API keys for ${organizationId}.`;
  const header = ['ID', 'NAME', 'PREFIX', 'SCOPES', 'STATUS', 'EXPIRES', 'LAST USED', 'CREATED'];
  const now = Date.now();
  const rows = keys.map((key) => [
    key.id,
    key.name,
    `${key.prefix}…`,
    key.scopes.join(' '),
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
    return async (prisma) => {
      const revoked = await revokeApiKey(prisma, id);
      if (!revoked) throw notFoundError(`API key ${id} not found`, '--id');
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
    return async (prisma) => {
      const expiresAt = days === undefined ? undefined : new Date(Date.now() + days * DAY_MS);
      const rotated = await rotateApiKey(prisma, id, expiresAt);
      if (!rotated) throw notFoundError(`API key ${id} not found`, '--id');
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

export const COMMANDS: readonly Command[] = [orgCreate, apiKeyCreate, apiKeyList, apiKeyRevoke, apiKeyRotate];
