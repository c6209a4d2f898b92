// The typed event payloads of the OpenAPI document: `Event` is a oneOf over the
// event types, `type` its discriminator, each variant with its `data.object`
// schema (the subject's response schema) and `actor`. Subjects come from the
// declarations (raisedEvents) and, for the system resources, from the list
// below. Built on first use, once every area has declared its resources.
import { z } from 'zod';
import { ACTOR_TYPES } from '../../../auth/principal.js';
import { cataloguedEvent, EVENT_TYPES } from '../../../events/catalogue.js';
import type { EventType } from '../../../events/event.js';
import { SYSTEM_EVENTS } from '../../../events/system-events.js';
import { declaredResources } from '../../kit/declared.js';
import { responseSchemaOf, type PublicType } from '../../kit/fields.js';
import { raisedEvents } from '../../kit/resource.js';
import { ApiKey } from '../api-key/type.js';
import { Export } from '../export/type.js';
import { Import } from '../import/type.js';
import { OauthApp } from '../oauth-app/type.js';
import { Organization } from '../organization/type.js';
import { User } from '../user/type.js';
import { Webhook } from '../webhook/type.js';

/**
 * The subject of the system events (raised by hand-written services, not
 * declarations), by what their name starts with: `user.created` is about a User.
 */
const SYSTEM_SUBJECTS: Record<string, PublicType> = {
  organization: Organization,
  user: User,
  api_key: ApiKey,
  webhook: Webhook,
  oauth_app: OauthApp,
  export: Export,
  import: Import,
};

/** The public type of each event type's `data.object`. */
export function eventSubjects(): Map<EventType, PublicType> {
  const subjects = new Map<EventType, PublicType>();
  for (const { type } of SYSTEM_EVENTS) {
    const subject = SYSTEM_SUBJECTS[type.slice(0, type.indexOf('.'))];
    if (subject) subjects.set(type, subject);
  }
  for (const resource of declaredResources().values()) {
    for (const { type } of raisedEvents(resource)) subjects.set(type, resource.type);
  }
  return subjects;
}

export const actorSchema = z
  .object({
    type: z.enum(ACTOR_TYPES),
    id: z.string().nullable().describe("The user's, API key's or OAuth app's id; null for system"),
  })
  .meta({ id: 'EventActor', description: 'Who made the change.' });

/** `contact.created` -> `ContactCreatedEvent`. */
const componentOf = (type: string) =>
  `${type.replace(/(^|[._])([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}Event`;

function payloadOf(type: EventType, subject: PublicType): z.ZodObject {
  const object = responseSchemaOf(subject) as z.ZodObject;
  return z
    .object({
      id: z.string().describe('Unique per event; deduplicate on it'),
      type: z.literal(type),
      created: z.int().describe('Unix time in seconds'),
      data: z.object({
        object: object,
        previousAttributes: object
          .partial()
          .optional()
          .describe('On a change: the previous values of what changed, and updatedAt'),
      }),
      actor: actorSchema,
    })
    .meta({ id: componentOf(type), description: cataloguedEvent(type).description });
}

let built: z.ZodType | undefined;

/** The `Event` component: one variant per event type of the catalogue. */
export function eventSchema(): z.ZodType {
  if (built) return built;
  const subjects = eventSubjects();
  const variants = EVENT_TYPES.map((type) => {
    const subject = subjects.get(type);
    if (!subject) throw new Error(`no declaration or system service names the subject of ${type}`);
    return payloadOf(type, subject);
  });
  const mapping = Object.fromEntries(
    variants.map((variant) => {
      const type = (variant.shape.type as z.ZodLiteral<string>).value;
      return [type, `#/components/schemas/${componentOf(type)}`];
    }),
  );
  built = z.discriminatedUnion('type', variants as unknown as [z.ZodObject, ...z.ZodObject[]]).meta({
    id: 'Event',
    description: 'Something that happened, as GET /events shows it and webhooks deliver it; `type` says which.',
    discriminator: { propertyName: 'type', mapping },
  });
  return built;
}
