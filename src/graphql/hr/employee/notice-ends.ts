// The end of a notice period: an employee whose endDate has passed in their
// organization's time zone becomes terminated, with `employee.terminated` (actor
// system) written by the kit's one write path. The worker runs it every minute
// (src/jobs/end-notices.ts); each employee in a transaction of its own, locked
// and checked again, so a reinstate or a second worker racing it changes nothing.
import type pg from 'pg';
import { SYSTEM_ACTOR } from '../../../auth/principal.js';
import { previousAttributes, selectRecord } from '../../kit/records.js';
import { actionsOf } from '../../kit/resource.js';
import { updateRecord } from '../../kit/store.js';
import { inTransaction } from '../../kit/transactions.js';
import { todayIn } from '../calendar/today.js';
import { employees } from './index.js';
import type { Employee } from './type.js';

/** An employee still active past their last day, in their organization's calendar. */
const PAST_NOTICE = `e.status = 'active' and e."endDate" < ${todayIn('o."timeZone"')}`;
const FROM = `"Employee" e join "Organization" o on o.id = e."organizationId"`;
const BATCH = 500;

/** Terminates every employee whose notice has ended; answers how many. */
export async function endNotices(pool: pg.Pool): Promise<number> {
  const { resource } = employees;
  // The event the terminate action declares: a notice's end is that termination, later.
  const terminated = actionsOf(resource).terminate!.event;
  let ended = 0;
  for (;;) {
    const { rows } = await pool.query<{ id: string; organizationId: string }>(
      `select e.id, e."organizationId" from ${FROM} where ${PAST_NOTICE} order by e."endDate", e.id limit ${BATCH}`,
    );
    for (const { id, organizationId } of rows) {
      const done = await inTransaction(pool, async (client) => {
        const before = await selectRecord<Employee>(client, resource, organizationId, id, true);
        const still = await client.query(`select 1 from ${FROM} where e.id = $1 and ${PAST_NOTICE}`, [id]);
        if (!before || !still.rowCount) return false;
        const changes = { status: 'terminated' };
        const event = { type: terminated.type, previousAttributes: previousAttributes(before, ['status']) };
        await updateRecord(client, resource, { organizationId, id, changes, events: [event], actor: SYSTEM_ACTOR });
        return true;
      });
      if (done) ended++;
    }
    if (rows.length < BATCH) return ended;
  }
}
