// Deals: validation, tenant scoping, the stage lifecycle (DECISIONS.md) and the
// events of each change. The contact a deal names must be one of the same
// organization; the foreign key alone would accept any organization's contact.
import pg from 'pg';
import type { Principal } from '../../../auth/principal.js';
import type { Prisma, Transaction } from '../../../db/prisma.js';
import { DomainError, notFound } from '../../../errors.js';
import type { Deal as DealRow } from '../../../generated/prisma/client.js';
import { isWellFormedId, newId } from '../../../ids.js';
import { emitEvent } from '../../../jobs/events.js';
import { parseInput } from '../../../validation.js';
import { sqlSelectOf, toPublic } from '../../kit/fields.js';
import { listPage } from '../../kit/list-query.js';
import { insertRecord } from '../../kit/writes.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { changedColumns, findOwned, lockOwned, previousAttributes, requireWellFormedId } from '../../kit/records.js';
import { dealInput, dealList } from './input.js';
import { Deal, isClosed, OPEN_STAGES } from './type.js';

const RECORDS = { table: 'Deal', type: Deal };
const DEAL_COLUMNS = sqlSelectOf(Deal, 'Deal');
const FOREIGN_KEY_VIOLATION = '23503';

const unknownContact = () =>
  new DomainError('VALIDATION_ERROR', "'contactId': no contact with this id in the organization", 'contactId');

const cannotClear = (field: string) => new DomainError('VALIDATION_ERROR', `'${field}' cannot be cleared`, field);

/** A YYYY-MM-DD date as Prisma writes a date column: midnight UTC. */
const dateColumn = (date: string | null | undefined) =>
  date === undefined ? undefined : date === null ? null : new Date(`${date}T00:00:00.000Z`);

export class DealService {
  constructor(private readonly db: ServiceDependencies) {}

  list(principal: Principal, args: unknown): Promise<Page<Deal>> {
    return listPage(this.db.pool, { ...RECORDS, list: dealList }, principal, args);
  }

  async get(principal: Principal, id: string): Promise<Deal> {
    const row = await findOwned('deal', 'Deal', id, (id) =>
      this.db.prisma.deal.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
    return toPublic(Deal, row);
  }

  /** The organization's deals of these contacts (for Contact.deals), oldest first: one query for them all. */
  async forContacts(principal: Principal, contactIds: readonly string[]): Promise<Deal[]> {
    const { rows } = await this.db.pool.query<Deal>({
      text: `select ${DEAL_COLUMNS} from "Deal" where "Deal"."organizationId" = $1 and "Deal"."contactId" = any($2)
             order by "Deal"."createdAt", "Deal".id`,
      values: [principal.organizationId, contactIds],
    });
    return rows;
  }

  /** A new deal, open (lead unless another open stage is given); emits deal.created. */
  async create(principal: Principal, input: unknown): Promise<Deal> {
    const data = parseInput(dealInput.create, input);
    // On create, null is as good as omitted: the default applies.
    const stage = data.stage ?? 'lead';
    if (isClosed(stage)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `'stage': a new deal starts open, at one of ${OPEN_STAGES.join(', ')}`,
        'stage',
      );
    }
    const contactId = data.contactId ?? null;
    if (contactId !== null && !isWellFormedId('contact', contactId)) throw unknownContact();
    const { organizationId } = principal;
    const deal = await insertRecord(this.db.pool, RECORDS, {
      organizationId,
      values: {
        id: newId('deal'),
        title: data.title,
        amount: data.amount ?? 0,
        currency: data.currency,
        stage,
        contactId,
        expectedCloseDate: data.expectedCloseDate ?? null,
      },
      event: 'deal.created',
      // The contact is checked in the insert's own statement; its foreign key then
      // holds it (KEY SHARE) until commit, so a concurrent delete cannot slip between.
      onlyIf:
        contactId === null
          ? undefined
          : (param) =>
              `exists (select 1 from "Contact" where id = ${param(contactId)} and "organizationId" = ${param(organizationId)})`,
    }).catch((error: unknown) => {
      throw error instanceof pg.DatabaseError && error.code === FOREIGN_KEY_VIOLATION ? unknownContact() : error;
    });
    if (!deal) throw unknownContact();
    return deal;
  }

  /**
   * A partial update. A stage change emits deal.stage_changed (with the previous
   * values of every changed field); reaching won or lost also sets closedAt and
   * emits deal.closed. A closed deal's stage cannot change (409); its other
   * fields can, without an event (the specification has no deal.updated).
   */
  async update(principal: Principal, id: string, input: unknown): Promise<Deal> {
    requireWellFormedId('deal', 'Deal', id);
    const patch = parseInput(dealInput.update, input);
    // Optional on create (with a default), but never empty.
    for (const field of ['stage', 'amount'] as const) if (patch[field] === null) throw cannotClear(field);
    if (typeof patch.contactId === 'string' && !isWellFormedId('contact', patch.contactId)) throw unknownContact();
    const { organizationId } = principal;
    return this.db.prisma.$transaction(async (tx) => {
      const before = await lockOwned<DealRow>(tx, 'Deal', 'Deal', organizationId, id);
      const changed = changedColumns(before, {
        title: patch.title,
        amount: patch.amount == null ? undefined : BigInt(patch.amount),
        currency: patch.currency,
        stage: patch.stage,
        contactId: patch.contactId,
        expectedCloseDate: dateColumn(patch.expectedCloseDate),
      });
      const stageChanged = 'stage' in changed;
      if (stageChanged && isClosed(before.stage)) {
        throw new DomainError('CONFLICT', `Deal is ${before.stage}; a closed deal's stage cannot change`, 'stage');
      }
      if (typeof changed.contactId === 'string') await requireContact(tx, organizationId, changed.contactId);
      const previous = toPublic(Deal, before);
      if (Object.keys(changed).length === 0) return previous;

      const now = new Date();
      const closing = stageChanged && isClosed(changed.stage as string);
      const data = { ...changed, ...(closing && { closedAt: now }) };
      const after = await tx.deal.update({
        where: { id },
        data: { ...data, updatedAt: now } as Prisma.DealUpdateInput,
      });
      const object = toPublic(Deal, after);
      if (stageChanged) {
        await emitEvent(tx, {
          organizationId,
          type: 'deal.stage_changed',
          object,
          previousAttributes: previousAttributes(previous, Object.keys(data)),
        });
        if (closing) await emitEvent(tx, { organizationId, type: 'deal.closed', object });
      }
      return object;
    });
  }

  /** Deletes the deal; no event (the specification lists none). */
  async delete(principal: Principal, id: string): Promise<boolean> {
    requireWellFormedId('deal', 'Deal', id);
    const { count } = await this.db.prisma.deal.deleteMany({ where: { id, organizationId: principal.organizationId } });
    if (count === 0) throw notFound('Deal');
    return true;
  }
}

/**
 * The contact must be the organization's. Locked (KEY SHARE) until commit, so
 * a concurrent delete cannot slip between this check and the deal's write.
 */
async function requireContact(tx: Transaction, organizationId: string, contactId: string): Promise<void> {
  const rows = await tx.$queryRaw<unknown[]>`
    select 1 from "Contact" where id = ${contactId} and "organizationId" = ${organizationId} for key share`;
  if (rows.length === 0) throw unknownContact();
}
