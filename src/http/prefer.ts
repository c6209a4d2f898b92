// `Prefer: dry-run` (issue 29, part 3): a write that answers what it would do and
// changes nothing. Prefer is RFC 7240's: comma-separated preferences, each a
// token with an optional value and parameters; unknown ones are ignored.
import type { IncomingHttpHeaders } from 'node:http';

export const DRY_RUN = 'dry-run';
/** Sent on every answer the preference was honoured for (RFC 7240 §3). */
export const PREFERENCE_APPLIED_HEADER = 'Preference-Applied';
/** The event types the write would raise, comma-separated, in order; absent when none. */
export const WOULD_RAISE_HEADER = 'Would-Raise';

/** Whether the request's Prefer header(s) ask for a dry run. */
export function prefersDryRun(headers: IncomingHttpHeaders): boolean {
  const prefer = headers.prefer;
  if (!prefer) return false;
  return (Array.isArray(prefer) ? prefer : [prefer])
    .flatMap((header) => header.split(','))
    .some((preference) => preference.split(/[=;]/)[0]!.trim().toLowerCase() === DRY_RUN);
}

/** What a dry run answers besides the write's own answer: the events it would raise. */
export interface DryRunAnswer<R> {
  value: R;
  raised: string[];
}

/** Runs `work` as a dry run in `organizationId` (src/db/dry-run.ts): nothing it writes stays. */
export type DryRunner = <R>(organizationId: string, work: () => Promise<R>) => Promise<DryRunAnswer<R>>;
