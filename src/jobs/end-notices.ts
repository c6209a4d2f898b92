// The every-minute task that ends notice periods (crontab in worker.ts): an
// employee whose endDate has passed in the organization's time zone becomes
// terminated (src/graphql/hr/employee/notice-ends.ts).
import type { Task } from 'graphile-worker';
import type pg from 'pg';
import { endNotices } from '../graphql/hr/employee/notice-ends.js';
import type { Logger } from '../logger.js';

export function endNoticesTask({ pool, logger }: { pool: pg.Pool; logger: Logger }): Task {
  return async () => {
    const ended = await endNotices(pool);
    if (ended) logger.info({ ended }, 'notice periods ended: employees terminated');
  };
}
