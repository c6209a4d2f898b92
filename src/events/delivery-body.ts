// What a webhook delivery POSTs: the event's envelope, its data as the webhook's
// scopes read it (an employee without salary for a webhook without hr:payroll).
// The worker serialises and signs exactly this; a delivery's page shows it.
import { visibleEventData } from './catalogue.js';

export interface DeliveryBody {
  id: string;
  type: string;
  /** Unix time in seconds. */
  created: number;
  data: unknown;
  actor: unknown;
}

/** The body of a delivery of `event` to a webhook with these scopes, its keys in the order sent. */
export function deliveryBody(event: DeliveryBody, scopes: ReadonlySet<string>): DeliveryBody {
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    data: visibleEventData(event.type, event.data, scopes),
    actor: event.actor,
  };
}
