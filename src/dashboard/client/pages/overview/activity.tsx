// Recent activity: the organization's latest events the viewer may read
// (the server filters them by scope), newest first: what happened, to which
// record (a link to it), who did it and when. The events API lists oldest
// first, so the count comes first and then the last page.
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

const COUNT = `query OverviewEventCount { events(limit: 1) { pagination { total } } }`;
const EVENT = 'id type created data actor { type id }';
const TAIL = `query OverviewEvents($page: Int!, $next: Int!) {
  first: events(page: $page, limit: ${SHOWN}) { data { ${EVENT} } }
  second: events(page: $next, limit: ${SHOWN}) { data { ${EVENT} } }
}`;

/** The latest SHOWN events, newest first: two pages of SHOWN cover the last SHOWN of any total. */
export async function latestEvents(): Promise<ActivityEvent[]> {
  const { events } = await graphql<{ events: { pagination: { total: number } } }>(COUNT);
  const start = Math.max(0, events.pagination.total - SHOWN);
  const page = Math.floor(start / SHOWN) + 1;
  const tail = await graphql<{ first: { data: ActivityEvent[] }; second: { data: ActivityEvent[] } }>(TAIL, {
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
    latestEvents().then(setEvents, (caught: unknown) => setError(asApiError(caught).message));
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
