// Per-credential rate limiting: a fixed budget per window, counted by
// rate-limiter-flexible in a store every server process shares (PostgreSQL, or
// Redis when REDIS_URL is set).
//
// To keep the store off each request's path, a process takes points from the
// shared budget in leases and spends them locally: one store round trip per
// lease. Leases are sized so the budget is never exceeded (points are taken
// before they are spent) and at most a small slice of it idles in a process:
// a lease is 1 point when the budget is small (every request counts exactly)
// and up to 2% of the budget, at most 100 points, when it is large.
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimitRefusals } from '../metrics/registry.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

interface KeyState {
  windowEndsAt: number;
  /** Points this process holds and may spend without asking the store. */
  leased: number;
  /** The store's count after our last lease (including points we still hold). */
  storeConsumed: number;
  pending?: Promise<void>;
}

const MAX_LEASE = 100;

export class SharedRateLimiter {
  private readonly states = new Map<string, KeyState>();
  private readonly leaseSize: number;

  constructor(
    private readonly store: RateLimiterAbstract,
    readonly limit: number,
    /** The label of its refusals in rate_limit_refusals_total. */
    private readonly name = 'credential',
  ) {
    this.leaseSize = Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / 50)));
  }

  async consume(key: string): Promise<RateLimitDecision> {
    for (;;) {
      const now = Date.now();
      const state = this.states.get(key);
      if (state && now < state.windowEndsAt && state.leased > 0) {
        state.leased -= 1;
        return this.decision(true, state, now);
      }
      // One lease at a time per key: concurrent requests wait for it and share it.
      if (state?.pending) {
        await state.pending;
        continue;
      }
      if (state && now < state.windowEndsAt && state.storeConsumed >= this.limit) {
        rateLimitRefusals.inc({ limit: this.name });
        return this.decision(false, state, now);
      }
      await this.lease(key, state, now);
    }
  }

  private lease(key: string, previous: KeyState | undefined, now: number): Promise<void> {
    // Ask for fewer points as the budget runs low, so none idle here at the end.
    const known = previous && now < previous.windowEndsAt ? previous.storeConsumed : 0;
    const want = Math.max(1, Math.min(this.leaseSize, Math.floor((this.limit - known) / 10)));
    const state: KeyState =
      previous && now < previous.windowEndsAt ? previous : { windowEndsAt: 0, leased: 0, storeConsumed: 0 };
    const pending = this.store
      .consume(key, want)
      .then(
        (res) => this.settle(state, res, want),
        (rejection: unknown) => {
          // rate-limiter-flexible rejects with a RateLimiterRes when over budget.
          if (rejection && typeof rejection === 'object' && 'consumedPoints' in rejection) {
            this.settle(state, rejection as RateLimiterRes, want);
          } else {
            throw rejection;
          }
        },
      )
      .finally(() => {
        state.pending = undefined;
      });
    state.pending = pending;
    this.states.set(key, state);
    this.sweep(now);
    return pending;
  }

  private settle(state: KeyState, res: RateLimiterRes, want: number): void {
    const before = res.consumedPoints - want;
    const granted = Math.max(0, Math.min(want, this.limit - before));
    state.windowEndsAt = Date.now() + res.msBeforeNext;
    state.storeConsumed = Math.min(res.consumedPoints, Math.max(before, this.limit));
    state.leased = granted;
  }

  private decision(allowed: boolean, state: KeyState, now: number): RateLimitDecision {
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - state.storeConsumed + state.leased),
      resetSeconds: Math.max(1, Math.ceil((state.windowEndsAt - now) / 1000)),
    };
  }

  /** Forgets keys whose window has passed, so the map holds live credentials only. */
  private sweep(now: number): void {
    if (this.states.size < 10_000) return;
    for (const [key, state] of this.states) if (state.windowEndsAt <= now && !state.pending) this.states.delete(key);
  }
}
