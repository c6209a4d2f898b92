// GraphQL spells scopes and event types as enum value names (`crm_read`,
// `deal_closed`: kit/enum-names.ts); the dashboard shows and sends them as the
// API writes them everywhere else (`crm:read`, `deal.closed`), and so do the
// descriptions it keys by them. api.ts converts at the door, both ways, in the
// fields that hold them; any other value passes unchanged. The event types come
// with the page (src/dashboard/page.ts): the catalogue is the server's.
import { SCOPES } from '../../auth/scopes.js';
import { enumValueName } from '../../graphql/kit/enum-names.js';

const eventTypes = document.querySelector<HTMLMetaElement>('meta[name="event-types"]')?.content.split(' ') ?? [];
const WIRE_VALUES = [...SCOPES, ...eventTypes.filter(Boolean)];
const byName = new Map(
  WIRE_VALUES.map((value) => [enumValueName(value), value] as const).filter(([name, value]) => name !== value),
);
const byWire = new Map([...byName].map(([name, value]) => [value, name]));

/** The fields whose values are scopes or event types (Viewer.scopes, Webhook.events, Event.type, …). */
const FIELDS = new Set(['scopes', 'events', 'type']);

function convert(value: unknown, table: ReadonlyMap<string, string>, inField = false): unknown {
  if (typeof value === 'string') return inField ? (table.get(value) ?? value) : value;
  if (Array.isArray(value)) return value.map((item) => convert(item, table, inField));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item, table, FIELDS.has(key))]));
}

/** Variables as GraphQL takes them: `crm:read` -> `crm_read`. */
export const toGraphQLNames = <T>(variables: T): T => convert(variables, byWire) as T;

/** An answer as the dashboard shows it: `crm_read` -> `crm:read`. */
export const toWireValues = <T>(data: T): T => convert(data, byName) as T;
