// The change feed as a service: the feed (src/changes) and the listener that
// wakes its long polls, which the API process starts (server.ts).
import { z } from 'zod';
import type { Principal } from '../../../auth/principal.js';
import {
  sequenceChanges,
  ChangeFeed,
  CHANGE_LIMIT_DEFAULT,
  CHANGE_LIMIT_MAX,
  CHANGE_WAIT_MAX_SECONDS,
  type ChangePage,
} from '../../../changes/feed.js';
import { CHANGE_CURSOR_MAX_LENGTH } from '../../../changes/cursor.js';
import { ChangeNotifier } from '../../../changes/notifier.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { wholeNumber } from '../../kit/page.js';

// Strict: a parameter the feed does not take is a 400 naming it.
export const changeQuerySchema = z.strictObject({
  after: z
    .string()
    .max(CHANGE_CURSOR_MAX_LENGTH)
    .optional()
    .meta({
      description:
        'A previous answer’s `next`, a change’s `cursor`, or an export’s `changesCursor`; absent: from the oldest ' +
        'change kept. A cursor read with `resources` follows only those resources (or some of them): another is 400.',
    }),
  limit: wholeNumber(`must be 1 to ${CHANGE_LIMIT_MAX}`)
    .pipe(
      z.number().min(1, `must be 1 to ${CHANGE_LIMIT_MAX}`).max(CHANGE_LIMIT_MAX, `must be 1 to ${CHANGE_LIMIT_MAX}`),
    )
    .default(CHANGE_LIMIT_DEFAULT)
    .meta({ type: 'integer', minimum: 1, maximum: CHANGE_LIMIT_MAX, default: CHANGE_LIMIT_DEFAULT }),
  resources: z
    .string()
    .regex(/^[a-z_-]+(,[a-z_-]+)*$/, 'must be resource names separated by commas, e.g. contacts,invoices')
    .optional()
    .meta({ description: 'Only these resources (REST names, comma-separated); default: all the credential can list.' }),
  wait: wholeNumber(`must be 0 to ${CHANGE_WAIT_MAX_SECONDS} seconds`)
    .pipe(z.number().min(0).max(CHANGE_WAIT_MAX_SECONDS, `must be 0 to ${CHANGE_WAIT_MAX_SECONDS} seconds`))
    .optional()
    .meta({
      type: 'integer',
      minimum: 0,
      maximum: CHANGE_WAIT_MAX_SECONDS,
      description: 'Long polling: when there is no change yet, wait up to this many seconds for one.',
    }),
});

export class ChangeService {
  private readonly notifier: ChangeNotifier;
  private readonly feed: ChangeFeed;

  constructor({ pool }: ServiceDependencies) {
    this.notifier = new ChangeNotifier(() => sequenceChanges(pool));
    this.feed = new ChangeFeed(pool, this.notifier);
  }

  read(
    principal: Principal,
    args: { after?: string; limit?: number; resources?: string[]; wait?: number },
  ): Promise<ChangePage> {
    return this.feed.read(principal, args);
  }

  /** LISTENs for new changes (a session: the direct URL); without it, a long poll wakes on this process's sequencer only. */
  listen(directUrl: string): Promise<void> {
    return this.notifier.listen(directUrl);
  }

  close(): Promise<void> {
    return this.notifier.close();
  }
}
