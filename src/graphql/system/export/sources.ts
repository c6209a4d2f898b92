// What can be exported: every declared resource (kit/declared.ts, by its REST
// path's last segment) and the events. Each source says its CSV columns (the
// REST object's fields), its SELECT list (the REST object, built by PostgreSQL),
// its filters (the list's own, page, limit and sort left out) and its WHERE.
import { z } from 'zod';
import type { Scope } from '../../../auth/scopes.js';
import { readableEventTypes, visibleEventData } from '../../../events/catalogue.js';
import { declaredResources } from '../../kit/declared.js';
import { publicFieldsOf, qualifiedColumn, scopedFieldsOf, sqlSelectOf } from '../../kit/fields.js';
import { whereOf, type SqlCondition } from '../../kit/list.js';
import { eventConditions, eventFilterSchema } from '../event/service.js';

export interface ExportSource {
  name: string;
  table: string;
  /** The REST object's fields, in order: the CSV header. */
  columns: readonly string[];
  /** The SELECT list of the REST object. */
  select: string;
  /** Validates the filters; an unknown one is refused. */
  filters: z.ZodType<Record<string, unknown>>;
  /** The scope its rows are read with (a declared resource's area's); none: each row says (events). */
  readScope?: Scope;
  /** The fields needing a scope to be seen (an employee's salary): out of a file whose scopes lack it. */
  hidden: { name: string; scope: Scope }[];
  /** The organization's rows narrowed by the parsed filters ($1 is the organization), as `scopes` read them. */
  where(organizationId: string, filters: Record<string, unknown>, scopes: ReadonlySet<string>): SqlCondition;
  /** A row as `scopes` read it, when more than its hidden fields depend on them (an event's data). */
  visible?(row: Record<string, unknown>, scopes: ReadonlySet<string>): Record<string, unknown>;
}

/** The list schema's filters alone, closed: page, limit and sort mean nothing to a whole file. */
function filtersOf(schema: z.ZodType): z.ZodType<Record<string, unknown>> {
  const { page: _page, limit: _limit, sort: _sort, ...filters } = (schema as z.ZodObject).shape;
  return z.strictObject(filters) as unknown as z.ZodType<Record<string, unknown>>;
}

const EVENT_FILTERS = filtersOf(eventFilterSchema);

const eventsSource: ExportSource = {
  name: 'events',
  table: 'Event',
  columns: ['id', 'type', 'created', 'data', 'actor'],
  select: `"Event".id, "Event".type, floor(extract(epoch from "Event"."createdAt"))::int as created, "Event".data,
    jsonb_build_object('type', "Event"."actorType", 'id', "Event"."actorId") as actor`,
  filters: EVENT_FILTERS,
  hidden: [],
  // The types the export's scopes read (every one, those of no area too, for `admin`).
  where: (organizationId, filters, scopes) => {
    const readable = scopes.has('admin') ? undefined : readableEventTypes(scopes);
    const types =
      filters.type === undefined ? readable : (readable ?? [filters.type as string]).filter((t) => t === filters.type);
    return eventConditions(organizationId, types, filters);
  },
  visible: (row, scopes) => ({ ...row, data: visibleEventData(row.type as string, row.data, scopes) }),
};

/** Every source by name, read at call time: what is declared now. */
export function exportSources(): Map<string, ExportSource> {
  const sources = new Map<string, ExportSource>();
  for (const [name, resource] of declaredResources()) {
    const { table, type, list } = resource;
    sources.set(name, {
      name,
      table,
      columns: publicFieldsOf(type).map((field) => field.name),
      select: sqlSelectOf(type, table),
      filters: filtersOf(list.schema),
      readScope: resource.area.read,
      hidden: scopedFieldsOf(type),
      where: (organizationId, filters) => whereOf(list, organizationId, filters, table),
    });
  }
  sources.set(eventsSource.name, eventsSource);
  return sources;
}

/** The keyset of every source: (createdAt, id), oldest first. */
export function keysetColumns(table: string): { at: string; id: string } {
  return { at: qualifiedColumn(table, 'createdAt'), id: qualifiedColumn(table, 'id') };
}
