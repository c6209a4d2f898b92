// Organizations (tenants) and their first admin user. Only operators create
// them (CLI, first-run bootstrap); no API credential reaches this service.
import { z } from 'zod';
import { hashPassword } from '../../../auth/passwords.js';
import type { Transaction } from '../../../db/prisma.js';
import { DomainError } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { parseInput } from '../../../validation.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { uniqueConflict } from '../../kit/records.js';
import { email, password } from '../../kit/values.js';

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
