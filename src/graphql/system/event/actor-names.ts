// Who an event's actor is, in words: a user's name (else their email), an API
// key's or an OAuth app's name, "System" for the service itself; null once the
// user, key or app is gone. Read for a page of events at once (one query per
// request, through a DataLoader), and only within the caller's organization.
import type pg from 'pg';
import type { Actor } from '../../../auth/principal.js';

export const SYSTEM_NAME = 'System';

const NAMES = `
  select id, coalesce(nullif(trim(name), ''), email) as name from "User" where "organizationId" = $1 and id = any($2)
  union all select id, name from "ApiKey" where "organizationId" = $1 and id = any($2)
  union all select id, name from "OAuthApp" where "organizationId" = $1 and id = any($2)`;

/** Each actor's name, in the order given. */
export async function actorNames(
  pool: pg.Pool,
  organizationId: string,
  actors: readonly Actor[],
): Promise<(string | null)[]> {
  const ids = [...new Set(actors.flatMap((actor) => (actor.type !== 'system' && actor.id ? [actor.id] : [])))];
  const found = new Map<string, string>();
  if (ids.length) {
    const { rows } = await pool.query<{ id: string; name: string }>(NAMES, [organizationId, ids]);
    for (const row of rows) found.set(row.id, row.name);
  }
  return actors.map((actor) => (actor.type === 'system' ? SYSTEM_NAME : (found.get(actor.id ?? '') ?? null)));
}
