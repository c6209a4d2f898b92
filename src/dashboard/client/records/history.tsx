// A record's history: the events about it (GraphQL `events(objectId:)`, those
// the viewer's scopes read), newest first, each with who did it (the actor's
// name: a user, an API key, an OAuth app, System), when, and which fields a
// change changed (`sort: createdAt_desc`: the latest hundred).
import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../api.js';
import { asApiError, ErrorMessage, formatDateTime, humanize, Loading } from '../ui.js';
import type { ApiError } from '../api.js';
import { fieldLabel } from './catalogue.js';
import './records.css';

interface HistoryEvent {
  id: string;
  type: string;
  created: number;
  actor: { type: string; id: string | null; name: string | null };
  data: { previousAttributes?: Record<string, unknown> };
}

interface EventPage {
  events: { data: HistoryEvent[]; pagination: { total: number; totalExact: boolean } };
}

const LIMIT = 100;
const HISTORY = `query RecordHistory($objectId: ID!, $limit: Int) {
  events(objectId: $objectId, limit: $limit, sort: createdAt_desc) {
    data { id type created actor { type id name } data } pagination { total totalExact }
  }
}`;

/** The latest LIMIT events about the record, newest first, and how many there are in all. */
async function latestEvents(objectId: string): Promise<{ events: HistoryEvent[]; total: number; exact: boolean }> {
  const { events } = await graphql<EventPage>(HISTORY, { objectId, limit: LIMIT });
  return { events: events.data, total: events.pagination.total, exact: events.pagination.totalExact };
}

const ACTOR_KINDS: Record<string, string> = { api_key: 'API key', oauth_app: 'OAuth app' };
const GONE: Record<string, string> = {
  user: 'A deleted user',
  api_key: 'A deleted API key',
  oauth_app: 'A deleted OAuth app',
};

function Actor({ actor }: { actor: HistoryEvent['actor'] }) {
  const kind = ACTOR_KINDS[actor.type];
  return (
    <span class="actor">
      {actor.name ?? GONE[actor.type] ?? humanize(actor.type)}
      {kind && actor.name && <span class="muted"> ({kind})</span>}
    </span>
  );
}

/** `leave_request.approved` -> "Approved"; `employee.notice_given` -> "Notice given". */
const what = (type: string) => humanize(type.slice(type.lastIndexOf('.') + 1));

export function RecordHistory({ objectId, reload = 0 }: { objectId: string; reload?: number }) {
  const [result, setResult] = useState<{ events: HistoryEvent[]; total: number; exact: boolean }>();
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    let current = true;
    latestEvents(objectId).then(
      (found) => current && setResult(found),
      (caught: unknown) => current && setError(asApiError(caught)),
    );
    return () => void (current = false);
  }, [objectId, reload]);
  return (
    <section class="history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {error && <ErrorMessage error={error} />}
      {!error && !result && <Loading label="Loading the history…" />}
      {result && !result.events.length && <p class="muted">No events about this record.</p>}
      {result && result.events.length > 0 && (
        <>
          {result.total > result.events.length && (
            <p class="muted">
              The latest {result.events.length} of {result.exact ? '' : 'more than '}
              {result.total} events.
            </p>
          )}
          <ol class="history-list">
            {result.events.map((event) => {
              const changed = Object.keys(event.data.previousAttributes ?? {}).filter((name) => name !== 'updatedAt');
              return (
                <li key={event.id}>
                  <span class="history-what">{what(event.type)}</span> by <Actor actor={event.actor} />
                  <span class="muted">
                    {' · '}
                    <time dateTime={new Date(event.created * 1000).toISOString()}>{formatDateTime(event.created)}</time>
                  </span>
                  {changed.length > 0 && (
                    <span class="history-changed">
                      {' '}
                      · changed {changed.map((name) => fieldLabel(name).toLowerCase()).join(', ')}
                    </span>
                  )}
                  <code class="history-type">{event.type}</code>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
