// Trouble that touches many requests or jobs at once (the database unreachable,
// the pool exhausted) is logged as a change of state, not once per request: the
// first failure of an episode says what is wrong, the first success after it says
// it is over, how long it lasted and how many were affected. A 6-second database
// outage then writes two lines per process instead of thousands.
import type { Logger } from './logger.js';

interface Episode {
  since: number;
  count: number;
}

export class OutageLog {
  private readonly episodes = new Map<string, Episode>();

  /** `affected` names what is counted in the closing line ("requests", "dispatches"). */
  constructor(
    private readonly logger: Logger,
    private readonly affected: string,
  ) {}

  /** One more failure of this kind (e.g. its message); only the first of an episode is logged, at `level`. */
  failed(kind: string, details: Record<string, unknown> = {}, level: 'warn' | 'error' = 'warn'): void {
    const episode = this.episodes.get(kind);
    if (episode) {
      episode.count++;
      return;
    }
    this.episodes.set(kind, { since: Date.now(), count: 1 });
    this.logger[level](
      { ...details, outage: kind },
      `${kind} (further ${this.affected} affected are counted, not logged)`,
    );
  }

  /** Something succeeded: every episode under way is over (said when it was more than one failure). Cheap when none is. */
  passed(): void {
    if (this.episodes.size === 0) return;
    for (const [kind, { since, count }] of this.episodes) {
      if (count === 1) continue; // its one line said all there was
      this.logger.info(
        { outage: kind, seconds: Math.round((Date.now() - since) / 100) / 10, [this.affected]: count },
        `over: ${kind}`,
      );
    }
    this.episodes.clear();
  }
}
