// The event catalogue: every event type, the scope needed to read it (an area's
// read scope, or admin for system events) and what raises it. It holds the
// types of the specification (section 6) and one per change of every declared
// resource (docs/decisions.md, Events). The declarations name the types they
// raise (src/graphql/**/index.ts); test/event-actors.test.ts fails when a
// declaration raises a type missing here or a resource's type nothing raises.
// Kept as one list, not derived from the declarations: the declarations are
// typed against EventType, and the webhook and events filters read the list
// at module load.
import type { Scope } from '../auth/scopes.js';

export const EVENT_TYPES = {
  'contact.created': 'crm:read',
  'contact.updated': 'crm:read',
  'contact.deleted': 'crm:read',
  'deal.created': 'crm:read',
  'deal.updated': 'crm:read',
  'deal.stage_changed': 'crm:read',
  'deal.closed': 'crm:read',
  'deal.deleted': 'crm:read',
  'invoice.created': 'finance:read',
  'invoice.updated': 'finance:read',
  'invoice.opened': 'finance:read',
  'invoice.voided': 'finance:read',
  'invoice.paid': 'finance:read',
  'payment.received': 'finance:read',
  'expense.created': 'finance:read',
  'expense.updated': 'finance:read',
  'expense.submitted': 'finance:read',
  'expense.approved': 'finance:read',
  'expense.rejected': 'finance:read',
  'expense.reimbursed': 'finance:read',
  'employee.created': 'hr:read',
  'employee.updated': 'hr:read',
  'employee.terminated': 'hr:read',
  'employee.reinstated': 'hr:read',
  'attendance.logged': 'hr:read',
  'attendance.updated': 'hr:read',
  'leave.requested': 'hr:read',
  'leave.updated': 'hr:read',
  'leave.approved': 'hr:read',
  'leave.rejected': 'hr:read',
  'leave.cancelled': 'hr:read',
  'payroll.created': 'hr:read',
  'payroll.updated': 'hr:read',
  'payroll.processed': 'hr:read',
  'user.logged_in': 'admin',
  'user.created': 'admin',
  'user.updated': 'admin',
  'user.deleted': 'admin',
  'api_key.created': 'admin',
  'api_key.revoked': 'admin',
  'webhook.created': 'admin',
  'webhook.updated': 'admin',
  'webhook.secret_rotated': 'admin',
  'webhook.deleted': 'admin',
  'oauth_app.created': 'admin',
  'oauth_app.updated': 'admin',
  'oauth_app.secret_rotated': 'admin',
  'oauth_app.deleted': 'admin',
  'export.created': 'admin',
  'export.completed': 'admin',
} as const satisfies Record<string, Scope>;

export type EventType = keyof typeof EVENT_TYPES;

/**
 * One line per event type: what happened and which change raises it (the
 * dashboard's webhook form, the OpenAPI document and the README's table show it).
 */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'contact.created': 'A contact was created (POST /crm/contacts).',
  'contact.updated': 'A contact was changed (PUT /crm/contacts/:id).',
  'contact.deleted': 'A contact was deleted (DELETE /crm/contacts/:id); data.object is the contact as it was.',
  'deal.created': 'A deal was created (POST /crm/deals).',
  'deal.updated': 'A deal was changed (PUT /crm/deals/:id), its stage included.',
  'deal.stage_changed': "A deal's stage changed (previousAttributes.stage holds the old one).",
  'deal.closed': 'A deal was won or lost.',
  'deal.deleted': 'A deal was deleted (DELETE /crm/deals/:id); data.object is the deal as it was.',
  'invoice.created': 'An invoice was created (POST /finance/invoices).',
  'invoice.updated': 'A draft invoice was changed (PUT /finance/invoices/:id).',
  'invoice.opened': 'An invoice was opened to payments (POST /finance/invoices/:id/open).',
  'invoice.voided': 'An invoice was voided (POST /finance/invoices/:id/void).',
  'invoice.paid': 'An invoice was paid in full (by the payment that covered it).',
  'payment.received': 'A payment was recorded against an invoice (POST /finance/payments).',
  'expense.created': 'A draft expense was created (POST /finance/expenses).',
  'expense.updated': 'A draft expense was changed (PUT /finance/expenses/:id).',
  'expense.submitted': 'An expense was submitted for approval.',
  'expense.approved': 'An expense was approved.',
  'expense.rejected': 'An expense was rejected.',
  'expense.reimbursed': 'An approved expense was reimbursed.',
  'employee.created': 'An employee was added (POST /hr/employees).',
  'employee.updated': "An employee's record was changed (PUT /hr/employees/:id).",
  'employee.terminated': 'An employee was terminated.',
  'employee.reinstated': 'A terminated employee was reinstated.',
  'attendance.logged': 'An employee clocked in (POST /hr/attendance) or out (POST /hr/attendance/:id/clock-out).',
  'attendance.updated': 'An attendance record was corrected (PUT /hr/attendance/:id).',
  'leave.requested': 'A leave request was made (POST /hr/leave-requests).',
  'leave.updated': 'A pending leave request was changed (PUT /hr/leave-requests/:id).',
  'leave.approved': 'A leave request was approved.',
  'leave.rejected': 'A leave request was rejected.',
  'leave.cancelled': 'A leave request was cancelled.',
  'payroll.created': 'A draft payroll run was created with its items (POST /hr/payroll-runs).',
  'payroll.updated': 'A draft payroll run was changed (PUT /hr/payroll-runs/:id).',
  'payroll.processed': 'A payroll run was processed.',
  'user.logged_in': 'A user signed in (actor: that user).',
  'user.created': 'A user was added (POST /users).',
  'user.updated': "A user's email, name, role, scopes or password was changed (PUT /users/:id).",
  'user.deleted': 'A user was deleted (DELETE /users/:id); data.object is the user as it was.',
  'api_key.created': 'An API key was created (POST /api-keys), or made by a rotation.',
  'api_key.revoked': 'An API key was revoked (POST /api-keys/:id/revoke), or replaced by a rotation.',
  'webhook.created': 'A webhook was created (POST /webhooks).',
  'webhook.updated': 'A webhook was changed, enabled or disabled (PUT /webhooks/:id).',
  'webhook.secret_rotated': "A webhook's signing secret was replaced (POST /webhooks/:id/rotate-secret).",
  'webhook.deleted': 'A webhook was deleted (DELETE /webhooks/:id); data.object is the webhook as it was.',
  'oauth_app.created': 'An OAuth app was registered (POST /oauth-apps).',
  'oauth_app.updated': 'An OAuth app was changed (PUT /oauth-apps/:id).',
  'oauth_app.secret_rotated': "An OAuth app's client secret was replaced (POST /oauth-apps/:id/rotate-secret).",
  'oauth_app.deleted':
    'An OAuth app was deleted with its tokens (DELETE /oauth-apps/:id); data.object is the app as it was.',
  'export.created': 'A data export was requested (POST /exports).',
  'export.completed': 'A data export finished and can be downloaded (actor: system, the worker).',
};

export const EVENT_AREAS = ['crm', 'hr', 'finance', 'system'] as const;

export type EventArea = (typeof EVENT_AREAS)[number];

/** The area of an event type: that of its read scope (`crm:read` -> crm), system for admin-only ones. */
export function eventAreaOf(type: EventType): EventArea {
  const scope: string = EVENT_TYPES[type];
  return scope === 'admin' ? 'system' : (scope.split(':')[0] as EventArea);
}

/** The event types a holder of these scopes may read. */
export function readableEventTypes(scopes: ReadonlySet<string>): EventType[] {
  return (Object.keys(EVENT_TYPES) as EventType[]).filter(
    (type) => scopes.has('admin') || scopes.has(EVENT_TYPES[type]),
  );
}
