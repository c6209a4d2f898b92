// `invoice.overdue`, raised once per invoice on the day it becomes overdue (its
// organization's day): the worker runs this every minute (src/jobs/overdue-invoices.ts).
// Each invoice in a transaction of its own, locked and checked again, then
// stamped with the day (the hidden column "overdueNotifiedOn") by the kit's one
// write path together with its event (actor system): a second worker racing it
// finds the stamp and raises nothing. The stamp is never cleared, so an invoice
// that reopens (a refund) after it was overdue raises no second event.
import type pg from 'pg';
import { SYSTEM_ACTOR } from '../../../auth/principal.js';
import { updateRecord } from '../../kit/store.js';
import { inTransaction } from '../../kit/transactions.js';
import { invoiceOverdue, invoices } from '../invoice/index.js';
import { overdueOf } from './invoice-sql.js';
import { todayIn } from '../../hr/calendar/today.js';

const TIME_ZONE = 'o."timeZone"';
const FROM = `"Invoice" i join "Organization" o on o.id = i."organizationId"`;
/**
 * Overdue and not yet notified. The first three terms are the partial index's
 * ("Invoice_overdue_sweep_idx"): no zone's today is after UTC's tomorrow, so a
 * due date before that bounds the scan before each organization's own today.
 */
const DUE_FOR_NOTICE =
  `i.status = 'open' and i."overdueNotifiedOn" is null ` +
  `and i."dueDate" < (now() at time zone 'UTC')::date + 1 and ${overdueOf('i', TIME_ZONE)}`;
const BATCH = 500;

/** Raises invoice.overdue for every invoice that became overdue and was not yet notified; answers how many. */
export async function notifyOverdueInvoices(pool: pg.Pool): Promise<number> {
  const { resource } = invoices;
  let notified = 0;
  for (;;) {
    const { rows } = await pool.query<{ id: string; organizationId: string }>(
      `select i.id, i."organizationId" from ${FROM} where ${DUE_FOR_NOTICE} order by i."dueDate", i.id limit ${BATCH}`,
    );
    for (const { id, organizationId } of rows) {
      const done = await inTransaction(pool, async (client) => {
        await client.query(`select 1 from "Invoice" where id = $1 for update`, [id]);
        // Read again under the lock: another worker's stamp, a payment or a void since the batch was read.
        const { rows: still } = await client.query<{ today: string }>(
          `select to_char(${todayIn(TIME_ZONE)}, 'YYYY-MM-DD') as today from ${FROM} where i.id = $1 and ${DUE_FOR_NOTICE}`,
          [id],
        );
        if (!still.length) return false;
        await updateRecord(client, resource, {
          organizationId,
          id,
          changes: { overdueNotifiedOn: still[0]!.today },
          events: [{ type: invoiceOverdue.type, previousAttributes: { overdue: false } }],
          actor: SYSTEM_ACTOR,
        });
        return true;
      });
      if (done) notified++;
    }
    if (rows.length < BATCH) return notified;
  }
}
