// The GraphQL enum of event types, made from the event catalogue (with
// webhook.test, the type of test deliveries): Event.type, Webhook.events and
// the events filter share it.
import { EVENT_TYPES } from '../../../events/catalogue.js';
import { TEST_EVENT_TYPE } from '../../../events/system-events.js';
import { wireEnum } from '../../kit/enums.js';

export const EventTypeEnum = wireEnum(
  'EventType',
  [...EVENT_TYPES, TEST_EVENT_TYPE],
  'The type of an event (webhook.test only for test deliveries).',
);
