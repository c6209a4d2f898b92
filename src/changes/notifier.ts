// Wakes long-polling readers of the feed. Writers do not NOTIFY (it would
// serialise their commits); while anyone waits, this process runs the sequencer
// every TICK_MS, and the sequencer NOTIFYs `changes` when it numbered any, so
// every process's waiters wake (LISTEN on a session of its own: the direct URL,
// DATABASE_DIRECT_URL behind a transaction pooler, like the credential cache's).
import type pg from 'pg';
import { newClient } from '../db/multi-host.js';
import type { Logger } from '../logger.js';

export const CHANGES_CHANNEL = 'changes';
/** How often the sequencer runs while a reader waits: the long poll's latency. */
const TICK_MS = 100;

export class ChangeNotifier {
  private readonly waiters = new Set<() => void>();
  private client?: pg.Client;
  private ticker?: NodeJS.Timeout;
  private closed = false;

  /** `sequence` numbers what committed, answering how many (it NOTIFYs if any). */
  constructor(
    private readonly sequence: () => Promise<number>,
    private readonly logger?: Logger,
  ) {}

  async listen(connectionString: string): Promise<void> {
    // A failover group's URL finds the primary again at each reconnection (src/db/multi-host.ts).
    const client = newClient(connectionString);
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

  /** Resolves when a change may have arrived (a NOTIFY, or this process's sequencer numbered some), or after `ms`. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      this.tick();
    });
  }

  private tick(): void {
    if (this.ticker || this.closed) return;
    this.ticker = setTimeout(async () => {
      try {
        // Without a listener, this process's own sequencing is the only signal.
        if ((await this.sequence()) > 0 && !this.client) this.wake();
      } catch (error) {
        this.logger?.warn({ error: (error as Error).message }, 'change feed sequencer failed');
      } finally {
        this.ticker = undefined;
        if (this.waiters.size) this.tick();
      }
    }, TICK_MS);
    this.ticker.unref();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    clearTimeout(this.ticker);
    await this.client?.end().catch(() => {});
  }
}
