// Wakes long-polling readers of the feed: the "Event" trigger NOTIFYs `changes`
// once per committing transaction. LISTEN needs a session of its own, so this
// connects to the direct URL (DATABASE_DIRECT_URL behind a transaction pooler),
// like the credential cache's listener. Without a listener, waits poll.
import pg from 'pg';
import type { Logger } from '../logger.js';

export const CHANGES_CHANNEL = 'changes';
/** How often a waiting reader looks again when no listener runs (or as a safety net if a NOTIFY is lost). */
const POLL_MS = 1_000;

export class ChangeNotifier {
  private readonly waiters = new Set<() => void>();
  private client?: pg.Client;
  private closed = false;

  constructor(private readonly logger?: Logger) {}

  async listen(connectionString: string): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('notification', () => this.wake());
    client.on('error', (error) => {
      if (!this.closed) this.logger?.warn({ error: error.message }, 'change feed listener lost; reconnecting');
      this.client = undefined;
      const retry = () => {
        if (this.closed) return;
        this.listen(connectionString).catch(() => setTimeout(retry, 1000).unref());
      };
      setTimeout(retry, 1000).unref();
    });
    await client.connect();
    await client.query(`listen ${CHANGES_CHANNEL}`);
    this.client = client;
  }

  /** Resolves at the next NOTIFY, after `ms`, or after POLL_MS, whichever comes first. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, POLL_MS));
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await this.client?.end().catch(() => {});
  }
}
