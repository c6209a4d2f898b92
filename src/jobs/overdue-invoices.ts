// The every-minute task that raises invoice.overdue (crontab in worker.ts): an
// open invoice whose due date has passed in its organization's time zone, once
// (src/graphql/finance/terms/overdue-sweep.ts).
import type { Task } from 'graphile-worker';
import type pg from 'pg';
import { notifyOverdueInvoices } from '../graphql/finance/terms/overdue-sweep.js';
import type { Logger } from '../logger.js';

export function overdueInvoicesTask({ pool, logger }: { pool: pg.Pool; logger: Logger }): Task {
  return async () => {
    const notified = await notifyOverdueInvoices(pool);
    if (notified) logger.info({ notified }, 'invoices overdue: invoice.overdue raised');
  };
}
