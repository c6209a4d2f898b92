// Recent activity: the organization's latest events the viewer may read
// (the server filters them by scope), newest first: what happened, to which
// record (a link to it), who did it and when.
//
// The events API lists oldest first and counts exactly only up to 1,000, so the
// latest are found in two steps: the counts of a few windows (all time, the last
// 30 days, day, hour, minute) in one request, then the last page of the widest
// window still counted exactly.
import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import type { Viewer } from '../../section.js';
import { ErrorMessage, formatDateTime, humanize, Link, Loading, asApiError } from '../../ui.js';
import type { AdminOverview } from './admin-data.js';
import { recordLabel, recordPath } from './record-links.js';

export interface ActivityEvent {
  id: string;
  type: string;
  created: number;
  data: { object?: Record<string, unknown> };
  actor: { type: 'user' | 'api_key' | 'oauth_app' | 'system'; id: string | null };
}

export const SHOWN = 10;

/** The windows counted, widest first (seconds back from now; undefined: all time). */
const WINDOWS = [undefined, 30 * 86_400, 86_400, 3_600, 60] as const;

interface Count {
  pagination: { total: number; totalExact: boolean };
}

const COUNTS = `query OverviewEventCounts(${WINDOWS.slice(1)
  .map((_, i) => `$since${i + 1}: Int!`)
  .join(', ')}) {
  ${WINDOWS.map(
    (_, i) => `w${i}: events(${i ? `since: $since${i}, ` : ''}limit: 1) { pagination { total totalExact } }`,
  ).join('\n  ')}
}`;

const EVENT = 'id type created data actor { type id }';
const TAIL = `query OverviewEvents($since: Int, $page: Int!, $next: Int!) {
  first: events(since: $since, page: $page, limit: ${SHOWN}) { data { ${EVENT} } }
  second: events(since: $since, page: $next, limit: ${SHOWN}) { data { ${EVENT} } }
}`;

/**
 * The latest SHOWN events, newest first, or undefined when even the last minute
 * holds more than the API counts exactly (nothing to page back from).
 */
export async function latestEvents(): Promise<ActivityEvent[] | undefined> {
  const now = Math.floor(Date.now() / 1000);
  const since = WINDOWS.map((seconds) => (seconds === undefined ? undefined : now - seconds));
  const variables = Object.fromEntries(since.slice(1).map((value, i) => [`since${i + 1}`, value]));
  const counts = await graphql<Record<string, Count>>(COUNTS, variables);
  const widest = WINDOWS.findIndex((_, i) => counts[`w${i}`]!.pagination.totalExact);
  if (widest < 0) return undefined;
  const total = counts[`w${widest}`]!.pagination.total;
  // Two pages of SHOWN cover the last SHOWN of any total.
  const start = Math.max(0, total - SHOWN);
  const page = Math.floor(start / SHOWN) + 1;
  const tail = await graphql<{ first: { data: ActivityEvent[] }; second: { data: ActivityEvent[] } }>(TAIL, {
    since: since[widest],
    page,
    next: page + 1,
  });
  return [...tail.first.data, ...tail.second.data]
    .slice(start - (page - 1) * SHOWN)
    .slice(-SHOWN)
    .reverse();
}

export function RecentActivity({ viewer, names }: { viewer: Viewer; names?: AdminOverview }) {
  const [events, setEvents] = useState<ActivityEvent[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    latestEvents().then(
      (latest) =>
        latest ? setEvents(latest) : setError('Too many events in the last minute to show the latest here.'),
      (caught: unknown) => setError(asApiError(caught).message),
    );
  }, []);
  return (
    <section class="panel overview-card wide" aria-labelledby="activity-title">
      <h2 id="activity-title">Recent activity</h2>
      {error && <ErrorMessage error={error} />}
      {!events && !error && <Loading />}
      {events && !events.length && <p class="muted">Nothing has happened yet.</p>}
      {events && events.length > 0 && (
        <ol class="activity">
          {events.map((event) => (
            <ActivityItem key={event.id} event={event} who={actorName(event.actor, viewer, names)} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ActivityItem({ event, who }: { event: ActivityEvent; who: string }) {
  const object = event.data.object;
  // A deleted record has no page to go to.
  const path = object && !event.type.endsWith('.deleted') ? recordPath(object.id) : undefined;
  const label = object ? recordLabel(object) : undefined;
  return (
    <li>
      <span class="activity-what">{humanize(event.type.replace('.', ' '))}</span>
      {label && <> {path ? <Link href={path}>{label}</Link> : <span>{label}</span>}</>}
      <span class="activity-meta">
        {' '}
        by {who} · <time dateTime={new Date(event.created * 1000).toISOString()}>{formatDateTime(event.created)}</time>
      </span>
    </li>
  );
}

/** Who did it, as named as the viewer may know: users and keys by name for an admin. */
export function actorName(actor: ActivityEvent['actor'], viewer: Viewer, names?: AdminOverview): string {
  if (actor.type === 'user') {
    if (actor.id && actor.id === viewer.user?.id) return 'you';
    const user = names?.users.data.find((u) => u.id === actor.id);
    return user ? (user.name ?? user.email) : 'a user';
  }
  if (actor.type === 'api_key') {
    const key = names?.apiKeys.data.find((k) => k.id === actor.id);
    return key ? `API key “${key.name}”` : 'an API key';
  }
  if (actor.type === 'oauth_app') return 'an OAuth app';
  return 'the system';
}
