// What can be exported: every declared resource (kit/declared.ts, by its REST
// path's last segment), an invoice's lines (invoice-lines.ts) and the events.
// Each source says its columns (the REST object's fields, with the name of each
// declared reference beside it: `contactName` beside `contactId`), its SELECT
// list (built by PostgreSQL), its filters (the list's own, page, limit and sort
// left out), its WHERE, the scope it needs and where its money is.
import { readableEventTypes, visibleEventData } from '../../../events/catalogue.js';
import { eventEnvelope, type StoredEvent } from '../../../events/envelope.js';
import { declaredResources } from '../../kit/declared.js';
import { scopedFieldsOf } from '../../kit/fields.js';
import { qualifiedColumn, sqlSelectItemsOf } from '../../kit/field-sql.js';
import { referenceNamesOf } from '../../kit/labels.js';
import { whereOf } from '../../kit/list.js';
import type { Resource } from '../../kit/resource.js';
import { eventConditions, eventFilterSchema } from '../event/list.js';
import { moneyShapeOf } from './amounts.js';
import { invoiceLinesSource } from './invoice-lines.js';
import { decimalRefusal, filtersOf, type ExportSource } from './source.js';

export type { ExportSource } from './source.js';

const EVENT_FILTERS = filtersOf(eventFilterSchema);

const eventsSource: ExportSource = {
  name: 'events',
  table: 'Event',
  from: '"Event"',
  columns: ['id', 'type', 'created', 'data', 'actor'],
  // The stored event, made its envelope by the one builder (src/events/envelope.ts) in `visible`.
  select: `"Event".id, "Event".type, "Event"."createdAt", "Event".data, "Event"."actorType", "Event"."actorId"`,
  filters: EVENT_FILTERS,
  exportScope: 'admin',
  hidden: [],
  noDecimal: "events hold their records' amounts as they were sent: export them in minor units",
  // The types the export's scopes read (every one, those of no area too, for `admin`).
  where: (organizationId, filters, scopes) => {
    const readable = scopes.has('admin') ? undefined : readableEventTypes(scopes);
    const types =
      filters.type === undefined ? readable : (readable ?? [filters.type as string]).filter((t) => t === filters.type);
    return eventConditions(organizationId, types, filters);
  },
  visible: (row, scopes) => {
    const event = eventEnvelope(row as unknown as StoredEvent);
    return { ...event, data: visibleEventData(event.type, event.data, scopes) };
  },
};

/** A declared resource's rows: its REST objects, each reference's name beside it. */
function declaredSource(name: string, resource: Resource): ExportSource {
  const { table, type, list } = resource;
  const names = referenceNamesOf(resource);
  const items = sqlSelectItemsOf(type, table).flatMap((item) => [
    item,
    ...names.filter(({ field }) => field === item.name).map((named) => ({ name: named.name, sql: named.sql(table) })),
  ]);
  const money = moneyShapeOf(type);
  return {
    name,
    table,
    from: `"${table}"`,
    columns: items.map((item) => item.name),
    select: items.map((item) => item.sql).join(', '),
    filters: filtersOf(list.schema),
    exportScope: resource.area.read,
    readScope: resource.area.read,
    // A name goes with its reference: out of the file when the reference is.
    hidden: [
      ...scopedFieldsOf(type),
      ...names.flatMap(({ name: column, scope }) => (scope ? [{ name: column, scope }] : [])),
    ],
    money,
    noDecimal: decimalRefusal(name, money),
    where: (organizationId, filters) => whereOf(list, organizationId, filters, table),
  };
}

/** Every source by name, read at call time: what is declared now. */
export function exportSources(): Map<string, ExportSource> {
  const sources = new Map<string, ExportSource>();
  const declared = declaredResources();
  for (const [name, resource] of declared) sources.set(name, declaredSource(name, resource));
  const invoices = declared.get('invoices');
  if (invoices) {
    const lines = invoiceLinesSource(invoices);
    sources.set(lines.name, lines);
  }
  sources.set(eventsSource.name, eventsSource);
  return sources;
}

/** The keyset of every source: (createdAt, id) of its table, oldest first. */
export function keysetColumns(table: string): { at: string; id: string } {
  return { at: qualifiedColumn(table, 'createdAt'), id: qualifiedColumn(table, 'id') };
}
