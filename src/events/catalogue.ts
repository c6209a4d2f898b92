// The event catalogue: every event type with its description, the scope that
// may read it and its area. Assembled once, when this module loads, from the
// declarations of every business resource (their areas are loaded here first,
// in the order of their REST paths) and then the system events. A name
// declared twice fails the load.
// It loads the areas, so nothing the kit loads may import it (an area module
// would then wait on itself): the system modules, the dashboard and emitEvent do.
import type { Scope } from '../auth/scopes.js';
// Loads every business area, so that each resource has declared itself.
import '../graphql/areas.js';
import { declaredResources } from '../graphql/kit/declared.js';
import { withoutHiddenFields } from '../graphql/kit/field-scopes.js';
import { scopedFieldsOf } from '../graphql/kit/fields.js';
import { raisedEvents, type Resource } from '../graphql/kit/resource.js';
import type { EventDeclaration, EventType } from './event.js';
import { SYSTEM_EVENTS } from './system-events.js';

export type EventArea = 'crm' | 'hr' | 'finance' | 'system';

export interface CataloguedEvent {
  type: EventType;
  description: string;
  scope: Scope;
  /** That of its read scope (`crm:read` -> crm), system for admin-only ones. */
  area: EventArea;
  /** Who its actor is, where not the caller. */
  actor?: string;
}

/**
 * The catalogue of these resources' events (by REST path, each in its
 * declaration's order) and then the system events; throws on a name declared twice.
 */
export function assembleCatalogue(
  declared: Iterable<Resource>,
  systemEvents: readonly EventDeclaration[],
): ReadonlyMap<EventType, CataloguedEvent> {
  const catalogue = new Map<EventType, CataloguedEvent>();
  const declaredBy = new Map<EventType, string>();
  const add = ({ type, description, scope, actor }: EventDeclaration, by: string, areaScope: Scope) => {
    const first = declaredBy.get(type);
    if (first) throw new Error(`the event type ${type} is declared twice: by ${first} and by ${by}`);
    declaredBy.set(type, by);
    const readScope = scope ?? areaScope;
    const area = readScope === 'admin' ? 'system' : (readScope.split(':')[0] as EventArea);
    catalogue.set(type, { type, description, scope: readScope, area, ...(actor && { actor }) });
  };
  const resources = [...declared].sort((a, b) => (a.fullPath < b.fullPath ? -1 : 1));
  for (const resource of resources) {
    for (const event of raisedEvents(resource)) add(event, resource.type.name, resource.area.read);
  }
  for (const event of systemEvents) add(event, 'the system events', 'admin');
  return catalogue;
}

const CATALOGUE = assembleCatalogue(declaredResources().values(), SYSTEM_EVENTS);

/** Every event type, the declared resources' by REST path, then the system ones. */
export const EVENT_TYPES: readonly EventType[] = [...CATALOGUE.keys()];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && CATALOGUE.has(value);
}

/** The catalogue's entry for `type`; throws for a name it does not hold. */
export function cataloguedEvent(type: EventType): CataloguedEvent {
  const entry = CATALOGUE.get(type);
  if (!entry)
    throw new Error(`unknown event type '${type}': declare it on its resource or in src/events/system-events.ts`);
  return entry;
}

/** The scope needed to read events of this type. */
export const eventScopeOf = (type: EventType): Scope => cataloguedEvent(type).scope;

/** The event types a holder of these scopes may read. */
export function readableEventTypes(scopes: ReadonlySet<string>): EventType[] {
  return EVENT_TYPES.filter((type) => scopes.has('admin') || scopes.has(CATALOGUE.get(type)!.scope));
}

let hiddenByType: Map<string, { name: string; scope: Scope }[]> | undefined;

/** The fields of an event type's subject that need a scope (a salary), from its resource's declaration. */
function hiddenFieldsOf(type: string): { name: string; scope: Scope }[] | undefined {
  if (!hiddenByType) {
    hiddenByType = new Map();
    for (const resource of declaredResources().values()) {
      const hidden = scopedFieldsOf(resource.type);
      if (hidden.length) for (const event of raisedEvents(resource)) hiddenByType.set(event.type, hidden);
    }
  }
  return hiddenByType.get(type);
}

type EventData = { object?: Record<string, unknown>; previousAttributes?: Record<string, unknown> };

/**
 * An event's data as a holder of `scopes` sees it: without the subject's fields
 * that need a scope they lack (an employee's salary without hr:payroll), in
 * `object` and `previousAttributes` alike. GET /events and webhook deliveries
 * (with the webhook's scopes) show this.
 */
export function visibleEventData<D>(type: string, data: D, scopes: ReadonlySet<string>): D {
  const hidden = hiddenFieldsOf(type);
  if (!hidden || !data || typeof data !== 'object') return data;
  const { object, previousAttributes } = data as EventData;
  return {
    ...data,
    ...(object && { object: withoutHiddenFields(object, hidden, scopes) }),
    ...(previousAttributes && { previousAttributes: withoutHiddenFields(previousAttributes, hidden, scopes) }),
  };
}
