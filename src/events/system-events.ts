// The events of the system resources (the organization, users, API keys, webhooks, OAuth apps,
// exports, imports), each readable with `admin` only. The hand-written services raise
// them by name (a literal type, so their emitEventBy calls are checked by the
// compiler); the system resources declared on the kit (users, API keys, OAuth apps,
// webhook subscriptions, exports) reference their group here from their declaration. They stay here,
// not in the declarations, because the catalogue is assembled before the system
// modules load (the webhook input's event-type enum needs it).
import { event, type EventDeclaration } from './event.js';

const systemEvent = <T extends string>(type: T, description: string, actor?: string): EventDeclaration<T> =>
  event(type, description, { scope: 'admin', ...(actor && { actor }) });

/** Those of the resources declared on the kit as system resources, by the role each plays in the declaration. */
export const USER_EVENTS = {
  created: systemEvent('user.created', 'A user was added (POST /users).'),
  updated: systemEvent('user.updated', "A user's email, name, role, scopes or password was changed (PUT /users/:id)."),
  deleted: systemEvent('user.deleted', 'A user was deleted (DELETE /users/:id); data.object is the user as it was.'),
};

export const API_KEY_EVENTS = {
  created: systemEvent('api_key.created', 'An API key was created (POST /api-keys), or made by a rotation.'),
  revoked: systemEvent(
    'api_key.revoked',
    'An API key was revoked (POST /api-keys/:id/revoke), or replaced by a rotation.',
  ),
};

export const WEBHOOK_EVENTS = {
  created: systemEvent('webhook.created', 'A webhook was created (POST /webhooks).'),
  updated: systemEvent('webhook.updated', 'A webhook was changed, enabled or disabled (PUT /webhooks/:id).'),
  secretRotated: systemEvent(
    'webhook.secret_rotated',
    "A webhook's signing secret was replaced (POST /webhooks/:id/rotate-secret).",
  ),
  deleted: systemEvent(
    'webhook.deleted',
    'A webhook was deleted (DELETE /webhooks/:id); data.object is the webhook as it was.',
  ),
};

export const OAUTH_APP_EVENTS = {
  created: systemEvent('oauth_app.created', 'An OAuth app was registered (POST /oauth-apps).'),
  updated: systemEvent('oauth_app.updated', 'An OAuth app was changed (PUT /oauth-apps/:id).'),
  secretRotated: systemEvent(
    'oauth_app.secret_rotated',
    "An OAuth app's client secret was replaced (POST /oauth-apps/:id/rotate-secret).",
  ),
  deleted: systemEvent(
    'oauth_app.deleted',
    'An OAuth app was deleted with its tokens (DELETE /oauth-apps/:id); data.object is the app as it was.',
  ),
};

export const EXPORT_EVENTS = {
  created: systemEvent('export.created', 'A data export was requested (POST /exports).'),
  completed: systemEvent(
    'export.completed',
    'A data export finished and can be downloaded (actor: system, the worker).',
    '`system` (the worker)',
  ),
};

/** Events that no declared resource raises: the organization's settings, a sign-in, an import's end. */
export const ORGANIZATION_UPDATED = systemEvent(
  'organization.updated',
  "The organization's name, time zone, working week or document details changed (PUT /organization).",
);
export const USER_LOGGED_IN = systemEvent(
  'user.logged_in',
  'A user signed in (actor: that user).',
  'the user who signed in',
);
export const IMPORT_COMPLETED = systemEvent(
  'import.completed',
  'An import (POST /imports) finished: data.object is the import with its status (completed, or failed), ' +
    "row counts and refused rows (actor: system, the worker; each row's own events name the caller).",
  '`system` (the worker)',
);

export const SYSTEM_EVENTS = [
  ORGANIZATION_UPDATED,
  USER_LOGGED_IN,
  ...Object.values(USER_EVENTS),
  ...Object.values(API_KEY_EVENTS),
  ...Object.values(WEBHOOK_EVENTS),
  ...Object.values(OAUTH_APP_EVENTS),
  ...Object.values(EXPORT_EVENTS),
  IMPORT_COMPLETED,
] as const;

export type SystemEventType = (typeof SYSTEM_EVENTS)[number]['type'];

/**
 * A test delivery's event type (src/graphql/system/webhook-delivery/dispatch.ts): stored
 * and shown, never subscribed to, so not in the catalogue.
 */
export const TEST_EVENT_TYPE = 'webhook.test';
