// Contacts: validation, tenant scoping, uniqueness, and the events of each change.
import type { Principal } from '../../../auth/principal.js';
import type { Prisma } from '../../../db/prisma.js';
import type { Contact as ContactRow } from '../../../generated/prisma/client.js';
import { newId } from '../../../ids.js';
import { emitEvent } from '../../../jobs/events.js';
import { notFound } from '../../../errors.js';
import { parseInput } from '../../../validation.js';
import { toPublic } from '../../kit/fields.js';
import { listPage } from '../../kit/list-query.js';
import { insertRecord } from '../../kit/writes.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import {
  changedColumns,
  findOwned,
  lockOwned,
  previousAttributes,
  requireWellFormedId,
  uniqueConflict,
} from '../../kit/records.js';
import { contactInput, contactList } from './input.js';
import { Contact } from './type.js';

const RECORDS = { table: 'Contact', type: Contact };

const CONFLICTS = { email: 'A contact with this email already exists in the organization' };

export class ContactService {
  constructor(private readonly db: ServiceDependencies) {}

  list(principal: Principal, args: unknown): Promise<Page<Contact>> {
    return listPage(this.db.pool, { ...RECORDS, list: contactList }, principal, args);
  }

  async get(principal: Principal, id: string): Promise<Contact> {
    const row = await findOwned('contact', 'Contact', id, (id) =>
      this.db.prisma.contact.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
    return toPublic(Contact, row);
  }

  /** The organization's contacts among `ids` (for Deal.contact), in no particular order. */
  async findMany(principal: Principal, ids: readonly string[]): Promise<Contact[]> {
    const rows = await this.db.prisma.contact.findMany({
      where: { id: { in: [...ids] }, organizationId: principal.organizationId },
    });
    return rows.map((row) => toPublic(Contact, row));
  }

  async create(principal: Principal, input: unknown): Promise<Contact> {
    const data = parseInput(contactInput.create, input);
    try {
      const contact = await insertRecord(this.db.pool, RECORDS, {
        organizationId: principal.organizationId,
        values: {
          id: newId('contact'),
          email: data.email,
          firstName: data.firstName ?? null,
          lastName: data.lastName ?? null,
          company: data.company ?? null,
          phone: data.phone ?? null,
          tags: data.tags ?? [],
        },
        event: 'contact.created',
      });
      return contact!;
    } catch (error) {
      throw uniqueConflict(error, CONFLICTS) ?? error;
    }
  }

  async update(principal: Principal, id: string, input: unknown): Promise<Contact> {
    requireWellFormedId('contact', 'Contact', id);
    const patch = parseInput(contactInput.update, input);
    const { organizationId } = principal;
    try {
      return await this.db.prisma.$transaction(async (tx) => {
        const before = await lockOwned<ContactRow>(tx, 'Contact', 'Contact', organizationId, id);
        const data = changedColumns(before, { ...patch, ...(patch.tags === null && { tags: [] }) });
        const previous = toPublic(Contact, before);
        if (Object.keys(data).length === 0) return previous;
        const after = await tx.contact.update({ where: { id }, data: data as Prisma.ContactUpdateInput });
        const object = toPublic(Contact, after);
        await emitEvent(tx, {
          organizationId,
          type: 'contact.updated',
          object,
          previousAttributes: previousAttributes(previous, Object.keys(data)),
        });
        return object;
      });
    } catch (error) {
      throw uniqueConflict(error, CONFLICTS) ?? error;
    }
  }

  async delete(principal: Principal, id: string): Promise<boolean> {
    requireWellFormedId('contact', 'Contact', id);
    const { count } = await this.db.prisma.contact.deleteMany({
      where: { id, organizationId: principal.organizationId },
    });
    if (count === 0) throw notFound('Contact');
    return true;
  }
}
