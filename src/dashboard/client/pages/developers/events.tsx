// Events (/developers/events): the organization's events as GET /v1/events
// lists them, newest first, filtered by type and by the record they are about
// (in the URL, so a filtered list can be linked). Each opens to its data as
// webhooks deliver it, with a link to the record and to that record's events.
import { useState } from 'preact/hooks';
import { setQuery, useLocation } from '../../route.js';
import { recordPath } from '../../record-paths.js';
import type { PageProps } from '../../section.js';
import { Link, Loaded, PageHeader, Pager, formatDateTime, humanize, useQuery } from '../../ui.js';
import { JsonBlock } from './json-block.js';
import './developers.css';

interface EventItem {
  id: string;
  type: string;
  created: number;
  data: { object?: { id?: unknown }; previousAttributes?: Record<string, unknown> };
  actor: { type: string; id: string | null };
}

interface EventType {
  type: string;
  area: string;
}

const LIMIT = 25;
const EVENTS = `query Events($page: Int, $limit: Int, $type: EventType, $objectId: ID) {
  events(page: $page, limit: $limit, type: $type, objectId: $objectId, sort: createdAt_desc) {
    data { id type created data actor { type id } }
    pagination { page limit total }
  }
}`;
const TYPES = `query EventTypes { webhookEventTypes { type area } }`;
const AREAS: Record<string, string> = { crm: 'CRM', hr: 'HR', finance: 'Finance', system: 'System' };

export function EventsPage(_: PageProps) {
  const { query } = useLocation();
  const type = query.get('type') ?? '';
  const objectId = query.get('objectId') ?? '';
  const page = Number(query.get('page')) || 1;
  const events = useQuery<{
    events: { data: EventItem[]; pagination: { page: number; limit: number; total: number } };
  }>(EVENTS, { page, limit: LIMIT, type: type || null, objectId: objectId || null });
  const types = useQuery<{ webhookEventTypes: EventType[] }>(TYPES);
  const filtered = !!(type || objectId);
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    setQuery({
      type: String(data.get('type') ?? ''),
      objectId: String(data.get('objectId') ?? '').trim(),
      page: undefined,
    });
  };
  return (
    <>
      <PageHeader title="Events" />
      <p class="muted">
        What happened in the organization, newest first: the <code>/v1/events</code> API, as webhooks deliver it.
      </p>
      {/* Keyed by the filters, so the fields show what the URL says after Back or a link. */}
      <form class="toolbar" onSubmit={onSubmit} key={`${type} ${objectId}`} role="search" aria-label="Filter events">
        <TypeSelect initial={type} types={types.data?.webhookEventTypes} />
        <div class="field">
          <label for="field-objectId">Record id</label>
          <input id="field-objectId" name="objectId" defaultValue={objectId} placeholder="con_…" />
        </div>
        <button type="submit">Filter</button>
        {filtered && (
          <button
            type="button"
            class="secondary"
            onClick={() => setQuery({ type: undefined, objectId: undefined, page: undefined })}
          >
            Clear filters
          </button>
        )}
      </form>
      <Loaded query={events}>
        {({ events: { data, pagination } }) =>
          data.length === 0 ? (
            <p class="empty">{filtered ? 'Nothing matches.' : 'No events yet.'}</p>
          ) : (
            <>
              <ul class="event-list" aria-label="Events, newest first">
                {data.map((event) => (
                  <EventRow key={event.id} event={event} />
                ))}
              </ul>
              <Pager {...pagination} onPage={(next) => setQuery({ page: next })} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/** The type filter: every type, or one, grouped by area. */
function TypeSelect({ initial, types }: { initial: string; types: EventType[] | undefined }) {
  const [type, setType] = useState(initial);
  return (
    <div class="field">
      <label for="field-type">Type</label>
      <select id="field-type" name="type" value={type} onChange={(event) => setType(event.currentTarget.value)}>
        <option value="">Every type</option>
        {Object.entries(AREAS).map(([area, label]) => {
          const ofArea = types?.filter((one) => one.area === area) ?? [];
          return ofArea.length ? (
            <optgroup key={area} label={label}>
              {ofArea.map((one) => (
                <option key={one.type} value={one.type}>
                  {one.type}
                </option>
              ))}
            </optgroup>
          ) : null;
        })}
        {initial && !types?.some((one) => one.type === initial) && <option value={initial}>{initial}</option>}
      </select>
    </div>
  );
}

function EventRow({ event }: { event: EventItem }) {
  const objectId = typeof event.data.object?.id === 'string' ? event.data.object.id : undefined;
  const record = recordPath(objectId);
  return (
    <li data-event-type={event.type}>
      <details>
        <summary>
          <code>{event.type}</code>
          <span>{formatDateTime(event.created)}</span>
          <span class="muted">
            by {humanize(event.actor.type)}
            {event.actor.id ? ` ${event.actor.id}` : ''}
          </span>
        </summary>
        <p class="muted">
          Event <code>{event.id}</code>
          {objectId && (
            <>
              {' '}
              about <code>{objectId}</code>
            </>
          )}
        </p>
        <JsonBlock value={event.data} />
        {objectId && (
          <p class="event-links">
            {record && (
              <>
                <Link href={record}>Open the record</Link>
                {' · '}
              </>
            )}
            <Link href={`/developers/events?objectId=${encodeURIComponent(objectId)}`}>Every event of this record</Link>
          </p>
        )}
      </details>
    </li>
  );
}
