// An event type as it is declared, once: its name, one line saying what
// happened and which change raises it (the dashboard's webhook form, the OpenAPI
// document and the README's table show it), and the scope that may read it. A
// resource's declaration holds its own (src/graphql/kit/resource.ts); the
// system resources' are in system-events.ts; catalogue.ts gathers them all.
import type { Scope } from '../auth/scopes.js';

/** An event type's name (`thing.created`): one of the catalogue's (emitEvent refuses any other). */
export type EventType = string;

export interface EventDeclaration<T extends EventType = EventType> {
  readonly type: T;
  readonly description: string;
  /** Who may read it; none: the read scope of the declaring resource's area. */
  readonly scope?: Scope;
  /** Who its actor is, where not the caller whose request made the change (the README's table says it). */
  readonly actor?: string;
}

/** `event('thing.created', 'A thing was created (POST /hr/things).')` */
export function event<T extends EventType>(
  type: T,
  description: string,
  options: { scope?: Scope; actor?: string } = {},
): EventDeclaration<T> {
  return { type, description, ...options };
}
