// The events an update that changed something raises: the rules' choice
// (`updateEvents`, each among the declared ones), or the declared `updated`, the
// lifecycle's move and the event of reaching a final state; with the previous
// values of what changed where the event carries them.
import { previousAttributes } from './records.js';
import { requireDeclaredEvent, type EventSpec, type Resource } from './resource.js';
import type { RaisedEvent } from './store.js';

export function updateEventsOf<T extends object>(
  resource: Resource<T>,
  before: T,
  changes: Record<string, unknown>,
  { moved, reachesFinal }: { moved: boolean; reachesFinal: boolean },
): RaisedEvent[] {
  const { lifecycle } = resource;
  const chosen = resource.rules?.updateEvents?.({ before, changes });
  for (const { event } of chosen ?? []) requireDeclaredEvent(resource as Resource, event.type);
  const specs: EventSpec[] = chosen ?? [
    ...(resource.events?.updated ? [{ event: resource.events.updated, previous: true }] : []),
    ...(moved ? [{ event: lifecycle!.update!.event, previous: true }] : []),
    ...(reachesFinal && lifecycle!.update!.finalEvent ? [{ event: lifecycle!.update!.finalEvent }] : []),
  ];
  const previous = previousAttributes(before, Object.keys(changes));
  return specs.map(({ event, previous: withPrevious }) => ({
    type: event.type,
    ...(withPrevious && { previousAttributes: previous }),
  }));
}
