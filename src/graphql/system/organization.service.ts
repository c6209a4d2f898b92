// Organizations (tenants) and their first admin user.
import { z } from 'zod';
import { hashPassword } from '../../auth/secrets.js';
import { isUniqueViolation, type PrismaClient, type Transaction } from '../../db/prisma.js';
import { DomainError } from '../../errors.js';
import { newId } from '../../ids.js';
import { parseInput } from '../../validation.js';

export const createOrganizationSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  adminEmail: z
    .string()
    .trim()
    .pipe(z.email('must be a valid email address'))
    .transform((value) => value.toLowerCase()),
  adminPassword: z.string().min(8, 'must be at least 8 characters').max(200),
});

export interface CreatedOrganization {
  organization: { id: string; name: string };
  user: { id: string; email: string };
}

/** Validates and hashes outside any transaction (scrypt is slow on purpose). */
export async function prepareOrganization(input: unknown) {
  const data = parseInput(createOrganizationSchema, input);
  return { name: data.name, adminEmail: data.adminEmail, passwordHash: await hashPassword(data.adminPassword) };
}

export async function insertOrganization(
  tx: Transaction,
  data: Awaited<ReturnType<typeof prepareOrganization>>,
): Promise<CreatedOrganization> {
  const organization = await tx.organization.create({ data: { id: newId('organization'), name: data.name } });
  const user = await tx.user.create({
    data: {
      id: newId('user'),
      organizationId: organization.id,
      email: data.adminEmail,
      passwordHash: data.passwordHash,
      role: 'admin',
    },
  });
  return { organization: { id: organization.id, name: organization.name }, user: { id: user.id, email: user.email } };
}

export async function createOrganization(prisma: PrismaClient, input: unknown): Promise<CreatedOrganization> {
  const data = await prepareOrganization(input);
  try {
    return await prisma.$transaction((tx) => insertOrganization(tx, data));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('CONFLICT', 'A user with this email already exists', 'adminEmail');
    }
    throw error;
  }
}
