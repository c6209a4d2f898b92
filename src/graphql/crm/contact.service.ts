// Contacts: validation, tenant scoping, uniqueness, and the events of each change.
import type pg from 'pg';
import type { Principal } from '../../auth/principal.js';
import { isUniqueViolation, type Prisma, type PrismaClient } from '../../db/prisma.js';
import { DomainError, notFound } from '../../errors.js';
import type { Contact as ContactRow } from '../../generated/prisma/client.js';
import { isWellFormedId, newId } from '../../ids.js';
import { emitEvent } from '../../jobs/events.js';
import { parseInput } from '../../validation.js';
import { paginationOf } from '../pagination.js';
import { listContacts } from './contact.queries.js';
import { contactFilterSchema, createContactSchema, updateContactSchema } from './contact.input.js';
import { contactObject, type Contact, type ContactPage } from './contact.type.js';

const duplicateEmail = () =>
  new DomainError('CONFLICT', 'A contact with this email already exists in the organization', 'email');

export class ContactService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: pg.Pool,
  ) {}

  async list(principal: Principal, args: unknown): Promise<ContactPage> {
    const filter = parseInput(contactFilterSchema, args);
    const { contacts, total } = await listContacts(this.pool, principal.organizationId, filter);
    return { data: contacts, pagination: paginationOf(filter, total) };
  }

  async get(principal: Principal, id: string): Promise<Contact> {
    if (!isWellFormedId('contact', id)) throw notFound('Contact');
    const row = await this.prisma.contact.findFirst({ where: { id, organizationId: principal.organizationId } });
    if (!row) throw notFound('Contact');
    return contactObject(row);
  }

  async create(principal: Principal, input: unknown): Promise<Contact> {
    const data = parseInput(createContactSchema, input);
    const { organizationId } = principal;
    try {
      return await this.prisma.$transaction(async (tx) => {
        const row = await tx.contact.create({
          data: {
            id: newId('contact'),
            organizationId,
            email: data.email,
            firstName: data.firstName ?? null,
            lastName: data.lastName ?? null,
            company: data.company ?? null,
            phone: data.phone ?? null,
            tags: data.tags ?? [],
          },
        });
        const object = contactObject(row);
        await emitEvent(tx, { organizationId, type: 'contact.created', object });
        return object;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
  }

  async update(principal: Principal, id: string, input: unknown): Promise<Contact> {
    if (!isWellFormedId('contact', id)) throw notFound('Contact');
    const changes = parseInput(updateContactSchema, input);
    const { organizationId } = principal;
    try {
      return await this.prisma.$transaction(async (tx) => {
        // Lock the row so concurrent updates each see the other's result in previousAttributes.
        const [before] = await tx.$queryRaw<ContactRow[]>`
          select * from "Contact" where id = ${id} and "organizationId" = ${organizationId} for update`;
        if (!before) throw notFound('Contact');
        const data: Prisma.ContactUpdateInput = {};
        for (const [field, value] of Object.entries(changes) as [keyof typeof changes, unknown][]) {
          if (value === undefined) continue;
          const next = field === 'tags' ? (value ?? []) : value;
          if (JSON.stringify(before[field]) !== JSON.stringify(next)) (data as Record<string, unknown>)[field] = next;
        }
        if (Object.keys(data).length === 0) return contactObject(before);
        const after = await tx.contact.update({ where: { id }, data });
        const object = contactObject(after);
        const previous = contactObject(before);
        const previousAttributes = Object.fromEntries(
          [...Object.keys(data), 'updatedAt'].map((field) => [field, previous[field as keyof Contact]]),
        ) as Partial<Contact>;
        await emitEvent(tx, { organizationId, type: 'contact.updated', object, previousAttributes });
        return object;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
  }

  async delete(principal: Principal, id: string): Promise<boolean> {
    if (!isWellFormedId('contact', id)) throw notFound('Contact');
    const { count } = await this.prisma.contact.deleteMany({ where: { id, organizationId: principal.organizationId } });
    if (count === 0) throw notFound('Contact');
    return true;
  }
}
