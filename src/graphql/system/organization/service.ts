// Organizations (tenants) and their first admin user. Only operators create
// them (CLI, first-run bootstrap). A credential reads its own organization, and
// an admin changes its settings (name, time zone, working week, the legal
// name, address and tax id printed on its documents, and payment terms).
import { z } from 'zod';
import type { Principal } from '../../../auth/principal.js';
import { hashPassword } from '../../../auth/passwords.js';
import type { Transaction } from '../../../db/prisma.js';
import { DomainError, invalidField, notFound } from '../../../errors.js';
import { emitEventBy } from '../../../events/emit.js';
import { ORGANIZATION_UPDATED } from '../../../events/system-events.js';
import { newId } from '../../../ids.js';
import { parseInput } from '../../../validation.js';
import { refuseChangedFixed, sameValue, type FixedFields } from '../../kit/fixed-fields.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { uniqueConflict } from '../../kit/records.js';
import { email, password } from '../../kit/values.js';
import { updateOrganizationSchema } from './input.js';
import type { Organization } from './type.js';

/** The organization's public fields (Organization), as Prisma selects them: here and for Viewer.organization. */
export const SETTINGS = {
  id: true,
  name: true,
  timeZone: true,
  workingDays: true,
  legalName: true,
  address: true,
  taxId: true,
  paymentTermsDays: true,
} as const;

export const createOrganizationSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  adminEmail: email,
  adminPassword: password,
});

export interface CreatedOrganization {
  organization: { id: string; name: string };
  user: { id: string; email: string };
}

type PreparedOrganization = { name: string; adminEmail: string; passwordHash: string };

/** Two processes starting together on one empty database: only the first seeds it. */
const BOOTSTRAP_LOCK = 4242001;

export class OrganizationService {
  constructor(private readonly db: ServiceDependencies) {}

  async create(input: unknown): Promise<CreatedOrganization> {
    const data = await prepare(input, this.db.config?.passwordScryptN);
    try {
      return await this.db.prisma.$transaction((tx) => insert(tx, data));
    } catch (error) {
      const conflict = uniqueConflict(error, { email: 'A user with this email already exists' });
      throw conflict ? new DomainError('CONFLICT', conflict.message, 'adminEmail') : error;
    }
  }

  /** Creates the first organization of an empty database; null when there is one already. */
  async createFirst(input: unknown): Promise<CreatedOrganization | null> {
    if ((await this.db.prisma.organization.count()) > 0) return null;
    const data = await prepare(input, this.db.config?.passwordScryptN);
    return this.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`;
      if ((await tx.organization.count()) > 0) return null;
      return insert(tx, data);
    });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.prisma.organization.count({ where: { id } })) > 0;
  }

  /** The caller's organization: its name, time zone and working week. */
  async get(principal: Principal): Promise<Organization> {
    const organization = await this.db.prisma.organization.findUnique({
      where: { id: principal.organizationId },
      select: SETTINGS,
    });
    if (!organization) throw notFound('Organization');
    return organization;
  }

  /**
   * Changes what is sent (admin: the resolver's scope), with the event
   * organization.updated and the previous values. `fixed`: the read-only fields
   * of a REST body (its id), at the organization's own value or a 400.
   */
  async update(principal: Principal, input: unknown, fixed?: FixedFields): Promise<Organization> {
    const patch = parseInput(updateOrganizationSchema, input);
    if (patch.timeZone !== undefined) patch.timeZone = await this.spelledTimeZone(patch.timeZone);
    return this.db.prisma.$transaction(async (tx) => {
      const [before] = await tx.$queryRaw<Organization[]>`
        select id, name, "timeZone", "workingDays", "legalName", address, "taxId", "paymentTermsDays"
        from "Organization" where id = ${principal.organizationId} for update`;
      if (!before) throw notFound('Organization');
      refuseChangedFixed(before, fixed);
      const was = before as unknown as Record<string, unknown>;
      const given = Object.entries(patch).filter(([, value]) => value !== undefined);
      const data = Object.fromEntries(given.filter(([field, value]) => !sameValue(was[field], value)));
      const changed = Object.keys(data);
      if (changed.length === 0) return before;
      const after = await tx.organization.update({ where: { id: before.id }, data, select: SETTINGS });
      // The event's previousAttributes: what changed, as it was.
      const previous = Object.fromEntries(changed.map((field) => [field, was[field]]));
      await emitEventBy(tx, principal, {
        type: ORGANIZATION_UPDATED.type,
        object: after,
        previousAttributes: previous,
      });
      return after;
    });
  }

  /**
   * The zone as PostgreSQL names it (IANA's spelling: `america/new_york` is
   * America/New_York): it computes the organization's days, so a name it lacks
   * is refused here rather than stored.
   */
  private async spelledTimeZone(name: string): Promise<string> {
    const [known] = await this.db.prisma.$queryRaw<{ name: string }[]>`
      select name from pg_timezone_names where lower(name) = lower(${name}) order by name = ${name} desc limit 1`;
    if (!known) throw invalidField('timeZone', `${name} is not a time zone this database knows`);
    return known.name;
  }
}

/** Validates and hashes outside any transaction (scrypt is slow on purpose). */
async function prepare(input: unknown, passwordScryptN: number | undefined): Promise<PreparedOrganization> {
  const data = parseInput(createOrganizationSchema, input);
  const passwordHash = await hashPassword(data.adminPassword, passwordScryptN);
  return { name: data.name, adminEmail: data.adminEmail, passwordHash };
}

async function insert(tx: Transaction, data: PreparedOrganization): Promise<CreatedOrganization> {
  const organization = await tx.organization.create({ data: { id: newId('organization'), name: data.name } });
  const user = await tx.user.create({
    data: {
      id: newId('user'),
      organizationId: organization.id,
      email: data.adminEmail,
      passwordHash: data.passwordHash,
      role: 'admin',
      scopes: ['admin'],
    },
  });
  return { organization: { id: organization.id, name: organization.name }, user: { id: user.id, email: user.email } };
}
