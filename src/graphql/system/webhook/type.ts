// A webhook subscription as the API shows it (never its secret), and the same
// with its secret as creation and rotation answer it once.
import { ObjectType } from 'type-graphql';
import { z } from 'zod';
import { EVENT_TYPES } from '../../../events/catalogue.js';
import { FIELD_KINDS, oneOf, Public, type FieldKind } from '../../kit/fields.js';
import { EventTypeEnum } from '../event/event-type-enum.js';

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;

const eventTypes = EVENT_TYPES as [string, ...string[]];
/** A list of event type names (GraphQL [String], OpenAPI an array of the event type enum). */
const eventTypeListKind: FieldKind = {
  ...FIELD_KINDS.textList,
  graphql: () => [EventTypeEnum],
  schema: () => z.array(z.enum(eventTypes)),
};

@ObjectType({ simpleResolvers: true, description: 'A webhook subscription: events of these types are POSTed to url.' })
export class Webhook {
  @Public.id()
  id!: string;

  @Public.text({
    description:
      'Where events are POSTed: https, to a public address (http and private addresses only in local development).',
  })
  url!: string;

  @Public.of(eventTypeListKind, { description: 'The event types delivered.' })
  events!: string[];

  @Public.scopes({
    description:
      "What its deliveries carry: each event's data as a holder of these scopes sees it (an employee's " +
      '`salary` and `currency` need `hr:payroll`). Default: the scopes of the credential that created it.',
  })
  scopes!: string[];

  @Public.text({ nullable: true })
  description!: string | null;

  @Public.of(oneOf(WEBHOOK_STATUSES), {
    description: 'A disabled webhook receives nothing until set to enabled again.',
  })
  status!: string;

  @Public.text({ nullable: true, description: 'Why the webhook was disabled.' })
  disabledReason!: string | null;

  @Public.timestamp({ nullable: true })
  disabledAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A webhook with its signing secret: store the secret now.' })
export class NewWebhook extends Webhook {
  @Public.text({ description: 'The signing secret (`whsec_…`). Shown only on creation and rotation.' })
  secret!: string;
}
