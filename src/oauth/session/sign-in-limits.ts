// How many sign-ins may fail, per account and per client address, counted in
// the shared rate-limit store. An attempt takes its point from both budgets
// before the password is checked, so parallel attempts cannot all pass a check
// made before any of them is counted; an attempt that turns out right gives its
// point back, so only failures stay counted.
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface SignInLimits {
  /** Failed sign-ins per account (keyed by the email's hash). */
  account: RateLimiterAbstract;
  /** Failed sign-ins per client address. */
  address: RateLimiterAbstract;
}

/** The budgets' keys for one attempt. */
export interface AttemptKeys {
  account: string;
  address: string;
}

/**
 * Takes a point from both budgets: 0 when the password may be checked, else the
 * seconds until a budget has room again (and the refused attempt costs nothing).
 */
export async function takeAttempt(limits: SignInLimits, keys: AttemptKeys): Promise<number> {
  const outcomes = await Promise.allSettled([
    limits.account.consume(keys.account),
    limits.address.consume(keys.address),
  ]);
  let refused = false;
  let waitMs = 0;
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') continue;
    // Over budget, consume rejects with the budget's state (and counted the point all the same).
    if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
    refused = true;
    waitMs = Math.max(waitMs, outcome.reason.msBeforeNext);
  }
  if (!refused) return 0;
  await giveBack(limits, keys);
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/** The password was right: the address gets its point back and the account's failures are cleared. */
export async function succeeded(limits: SignInLimits, keys: AttemptKeys): Promise<void> {
  await Promise.all([limits.account.delete(keys.account), limits.address.reward(keys.address, 1)]);
}

/** The attempt was not checked (refused, or the check failed): both points back. */
export async function giveBack(limits: SignInLimits, keys: AttemptKeys): Promise<void> {
  await Promise.all([limits.account.reward(keys.account, 1), limits.address.reward(keys.address, 1)]);
}
