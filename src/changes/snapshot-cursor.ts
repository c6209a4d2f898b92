// The change feed's cursor of a snapshot: what an export carries, so a client
// that loaded the file follows GET /v1/changes from it and misses nothing
// committed after the file's snapshot (docs/decisions.md, "Change feed: the ends").
import type pg from 'pg';
import { encodeChangeCursor } from './cursor.js';

/**
 * The highest position the caller's snapshot sees numbered (else the
 * organization's pruned horizon, else the start), read on `client` inside the
 * REPEATABLE READ transaction whose snapshot the export reads. Sound because the
 * sequencer numbers in lock order from one sequence: a position at or below it
 * belongs to a change committed before the snapshot, and a change committed after
 * the snapshot is numbered by a later run, above it. A change committed before
 * the snapshot but not numbered yet is in the file and numbered above it too: it
 * comes again in the feed (acceptable, documented). Bound to no resources: it
 * follows every one, or any `resources` filter.
 */
export async function snapshotChangesCursor(client: pg.PoolClient, organizationId: string): Promise<string> {
  const { rows } = await client.query<{ position: string }>(
    `select coalesce((select max(position) from "Change"),
                     (select "prunedThrough" from "ChangeHorizon" where "organizationId" = $1), 0)::text as position`,
    [organizationId],
  );
  return encodeChangeCursor(organizationId, BigInt(rows[0]!.position));
}

/**
 * Numbers what has committed before a snapshot is taken: fewer of the file's own
 * changes come again after its cursor. Not needed for soundness; best effort.
 */
export async function sequenceBeforeSnapshot(pool: pg.Pool): Promise<void> {
  // change_sequence(): the migration's sequencer, its own short transaction (as the feed's readers run it).
  await pool.query('select change_sequence()').catch(() => undefined);
}
