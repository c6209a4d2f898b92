// What a webhook delivery POSTs: the event's envelope (envelope.ts), its data as
// the webhook's scopes read it (an employee without salary for a webhook without
// hr:payroll). The worker serialises and signs exactly this; a delivery's page shows it.
import { visibleEventData } from './catalogue.js';
import type { EventEnvelope } from './envelope.js';

export type DeliveryBody = EventEnvelope;

/** The body of a delivery of `event` to a webhook with these scopes, its keys in the order sent. */
export function deliveryBody(event: EventEnvelope, scopes: ReadonlySet<string>): DeliveryBody {
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    data: visibleEventData(event.type, event.data, scopes),
    actor: event.actor,
  };
}
