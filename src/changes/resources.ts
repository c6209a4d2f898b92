// Which event types are changes of which declared resource, and what kind of
// change: read from the declarations, so every declared resource has a feed.
import { declaredResources } from '../graphql/kit/declared.js';
import { raisedEvents } from '../graphql/kit/resource.js';

export type ChangeOperation = 'created' | 'updated' | 'deleted';

export interface ChangeKind {
  /** The resource's REST name, the last segment of its path: `contacts`. */
  resource: string;
  operation: ChangeOperation;
}

let kinds: Map<string, ChangeKind> | undefined;

/** By event type: every event of a declared resource; an action's (invoice.paid) is an update of its record. */
export function changeKinds(): ReadonlyMap<string, ChangeKind> {
  if (kinds) return kinds;
  kinds = new Map();
  for (const resource of declaredResources().values()) {
    const name = resource.fullPath.slice(resource.fullPath.lastIndexOf('/') + 1);
    for (const { type } of raisedEvents(resource)) {
      const operation =
        type === resource.events?.created?.type
          ? 'created'
          : type === resource.events?.deleted?.type
            ? 'deleted'
            : 'updated';
      kinds.set(type, { resource: name, operation });
    }
  }
  return kinds;
}

/** The REST names of the resources that have a feed, sorted. */
export function changeResourceNames(): string[] {
  return [...new Set([...changeKinds().values()].map((kind) => kind.resource))].sort();
}
